"""Every exported name, and every public method and property of an exported class, has a
docstring with a worked example; every example runs as shown (doctest)."""

import doctest
import inspect
import types

import pytest

import cute_algebra
import cute_algebra.dsl
import cute_algebra.symbolic
import cute_algebra.tensor
from cute_algebra import pycute

MODULES = [
    cute_algebra,
    cute_algebra.dsl,
    cute_algebra.symbolic,
    cute_algebra.tensor,
    pycute,
    pycute.int_tuple,
    pycute.atuple,
    pycute.htuple,
    pycute.layout,
    pycute.layout_fns,
    pycute.tensor,
    pycute.swizzle,
    pycute.typing,
    pycute._sympy,
]

# attributes documented by the descriptor itself (properties, PyO3 getters, __slots__ members);
# for everything else (functions, static and class methods) the attribute as the class gives it
DESCRIPTORS = (property, types.GetSetDescriptorType, types.MemberDescriptorType)


def exported(module):
    for name in module.__all__:
        yield name, getattr(module, name)


def members(cls):
    """(name, docstring) of the public methods and properties a class defines."""
    for attr, member in vars(cls).items():
        if attr.startswith("_"):
            continue
        if isinstance(member, DESCRIPTORS):
            # inspect finds a __slots__ member's docstring in the class's __slots__ dict
            yield attr, inspect.getdoc(member) or ""
        else:
            yield attr, inspect.getdoc(getattr(cls, attr)) or ""


def docstrings(module):
    """(name, docstring) of the module, its exported names and their classes' public members."""
    out = [(module.__name__, module.__doc__ or "")]
    for name, obj in exported(module):
        out.append((f"{module.__name__}.{name}", inspect.getdoc(obj) or ""))
        if inspect.isclass(obj):
            out.extend((f"{module.__name__}.{name}.{attr}", doc) for attr, doc in members(obj))
    return out


# LayoutError is an exception class; its one example lives in cute_algebra's own docs
WITHOUT_EXAMPLE_OK = {"cute_algebra.pycute.LayoutError", "cute_algebra.pycute.layout.LayoutError"}


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_export_and_member_has_an_example(module):
    missing = [name for name, doc in docstrings(module)
               if ">>>" not in doc and name not in WITHOUT_EXAMPLE_OK]
    assert missing == []


def test_members_are_seen():
    """The walk reaches methods, static methods, properties, PyO3 getters and slots (so that the
    test above would notice one without an example)."""
    names = {name for m in MODULES for name, _ in docstrings(m)}
    assert {"cute_algebra.Layout.size", "cute_algebra.Layout.parse", "cute_algebra.Swizzle.bits",
            "cute_algebra.BankReport.total", "cute_algebra.Tensor.dtype",
            "cute_algebra.Tensor.offset", "cute_algebra.pycute.Layout.cosize",
            "cute_algebra.pycute.ComposedLayout.size"} <= names
    # a class with a method without an example is caught
    class Bare:
        """>>> 1\n1"""

        def method(self):
            """No example."""

    assert [n for n, d in members(Bare) if ">>>" not in d] == ["method"]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_examples_run(module):
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    examples = 0
    for name, doc in docstrings(module):
        test = parser.get_doctest(doc, dict(vars(module)), name, None, 0)
        examples += len(test.examples)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    assert examples > 0


def test_layout_error_is_a_value_error():
    assert issubclass(cute_algebra.LayoutError, ValueError)
    assert pycute.LayoutError is cute_algebra.LayoutError


def test_readmes_python_examples_run():
    """The package README's example (a doctest) and the top-level README's Python block run as
    shown."""
    import pathlib
    import re

    here = pathlib.Path(__file__).resolve().parent.parent
    text = (here / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    for block in blocks:
        test = doctest.DocTestParser().get_doctest(block, {}, "README.md", None, 0)
        runner = doctest.DocTestRunner()
        runner.run(test)
        assert runner.failures == 0 and runner.tries >= 4
    top = (here.parent.parent / "README.md").read_text()
    code = re.findall(r"```python\n(.*?)```", top, re.S)
    # the algebra's block, and the GPU block (which checks cuda.available() first, so that it
    # runs on a machine without a GPU too)
    assert len(code) == 2 and "cuda" in code[1]
    # run them with help() silenced, and check the printed values against the comments
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in code:
            exec(block, {"help": lambda *a: None})
    expected = [m.strip() for block in code for m in re.findall(r"print\(.*#\s*(\S+)", block)]
    assert out.getvalue().split() == expected
