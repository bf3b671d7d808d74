"""Type stubs of cute_algebra.pycute: the names of legacy pycute's four modules."""

from .int_tuple import (
    crd2crd as crd2crd, crd2idx as crd2idx, elem_scale as elem_scale, flatten as flatten,
    has_none as has_none, idx2crd as idx2crd, inner_product as inner_product, is_int as is_int,
    is_tuple as is_tuple, prefix_product as prefix_product, product as product,
    shape_div as shape_div, signum as signum, slice_ as slice_, tuple_max as tuple_max,
)
from .layout import (
    Layout as Layout, LayoutBase as LayoutBase, LayoutError as LayoutError, coalesce as coalesce,
    complement as complement, composition as composition, cosize as cosize, filter as filter,
    hier_unzip as hier_unzip, is_layout as is_layout, left_inverse as left_inverse,
    logical_divide as logical_divide, logical_product as logical_product,
    make_layout as make_layout, right_inverse as right_inverse, size as size,
    slice_and_offset as slice_and_offset, tiled_divide as tiled_divide,
    tiled_product as tiled_product, zipped_divide as zipped_divide,
    blocked_product as blocked_product, raked_product as raked_product,
    zipped_product as zipped_product,
)
from .swizzle import (
    ComposedLayout as ComposedLayout, Swizzle as Swizzle, shiftl as shiftl, shiftr as shiftr,
)
from .typing import Integer as Integer

__all__ = [
    "is_int", "is_tuple", "flatten", "signum", "product", "inner_product", "tuple_max",
    "elem_scale", "shape_div", "prefix_product", "idx2crd", "crd2idx", "crd2crd", "slice_",
    "has_none",
    "LayoutBase", "is_layout", "Layout", "make_layout", "size", "cosize", "coalesce", "filter",
    "composition", "complement", "right_inverse", "left_inverse", "logical_divide",
    "logical_product", "hier_unzip", "zipped_divide", "tiled_divide", "zipped_product",
    "tiled_product", "blocked_product", "raked_product", "slice_and_offset", "LayoutError",
    "shiftr", "shiftl", "Swizzle", "ComposedLayout",
    "Integer",
]
