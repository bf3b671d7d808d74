"""Type stubs of cute_algebra.pycute.layout_fns: the paper's PyCuTe layout functions."""

from typing import Any

from .htuple import ModeOpDecorator
from .layout import Layout

__all__ = [
    "shape", "stride", "rank", "depth", "coshape", "coprofile", "congruent", "weakly_congruent",
    "compatible", "tiler_to_layout", "make_layout_like", "make_ordered_layout",
    "greatest_common_domain", "coalesce_z", "layout_add",
]

shape: ModeOpDecorator
stride: ModeOpDecorator
rank: ModeOpDecorator
depth: ModeOpDecorator
coshape: ModeOpDecorator
coprofile: ModeOpDecorator

def congruent(a: Any, b: Any) -> bool: ...
def weakly_congruent(a: Any, b: Any) -> bool: ...
def compatible(a: Any, b: Any) -> bool: ...
def tiler_to_layout(tiler: Any) -> Layout: ...
def make_layout_like(layout: Layout) -> Layout: ...
def make_ordered_layout(shp: Any, order: Any) -> Layout: ...
def greatest_common_domain(a: Any, b: Any) -> Layout: ...

coalesce_z: ModeOpDecorator
def layout_add(a: Layout, b: Layout) -> Layout: ...
