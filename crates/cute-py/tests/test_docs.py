"""Every exported name has a docstring with a worked example, and every example runs as shown."""

import doctest
import inspect

import pytest

import cute_algebra
from cute_algebra import pycute

MODULES = [
    cute_algebra,
    pycute,
    pycute.int_tuple,
    pycute.layout,
    pycute.swizzle,
    pycute.typing,
]

NO_EXAMPLE = {"LayoutBase", "BankReport", "SwizzleSearch"}  # plain result records


def exported(module):
    for name in module.__all__:
        yield name, getattr(module, name)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_export_has_an_example(module):
    missing = []
    for name, obj in exported(module):
        if name in NO_EXAMPLE or name == "LayoutError" and module is not cute_algebra:
            continue
        doc = inspect.getdoc(obj) or ""
        if ">>>" not in doc:
            missing.append(name)
    assert missing == []


def docstrings(module):
    """(name, docstring) of the module, its exported names and their public methods."""
    out = [(module.__name__, module.__doc__ or "")]
    for name, obj in exported(module):
        out.append((f"{module.__name__}.{name}", obj.__doc__ or ""))
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                out.append((f"{module.__name__}.{name}.{attr}", getattr(member, "__doc__", "") or ""))
    return out


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
