"""Type stubs of cute_algebra.pycute: the names of legacy pycute's four modules and of the paper's
PyCuTe."""

from .atuple import (
    E as E, F2 as F2, ArithTuple as ArithTuple, ScaledBasis as ScaledBasis,
    basis_repr as basis_repr, is_basis as is_basis, is_stride_scalar as is_stride_scalar,
    proj as proj, unit as unit, in_bounds as in_bounds,
)
from .htuple import (
    ModeOpDecorator as ModeOpDecorator, dice_ as dice_, get as get, is_htuple as is_htuple,
    leaves as leaves, lift as lift, product_each as product_each, repeat_like as repeat_like,
    select as select, take as take, transform_apply_leaf as transform_apply_leaf,
    transform_leaf as transform_leaf, unflatten as unflatten, unwrap as unwrap, wrap as wrap,
    profile as profile, zip_leaves as zip_leaves,
)
from .layout_fns import (
    coprofile as coprofile, coshape as coshape, compatible as compatible, congruent as congruent,
    depth as depth, make_layout_like as make_layout_like,
    make_ordered_layout as make_ordered_layout, rank as rank, shape as shape, stride as stride,
    tiler_to_layout as tiler_to_layout, weakly_congruent as weakly_congruent,
    greatest_common_domain as greatest_common_domain, coalesce_z as coalesce_z,
    layout_add as layout_add, recast as recast, nullspace as nullspace,
    common_refinement as common_refinement, common_coarsening as common_coarsening,
)

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
from .tensor import (
    Accessor as Accessor, MutableAccessor as MutableAccessor, Array as Array,
    ImplicitAccessor as ImplicitAccessor, Ptr as Ptr, Tensor as Tensor,
    identity_tensor as identity_tensor, is_tensor as is_tensor, make_tensor as make_tensor,
)
from .typing import Integer as Integer
from .typedefs import (
    Coord as Coord, HTuple as HTuple, IntTuple as IntTuple, Profile as Profile, Shape as Shape,
    Stride as Stride, StrideScalar as StrideScalar, Tiler as Tiler,
    register_integer_type as register_integer_type,
)
from . import alg as alg

__all__ = [
    "is_int", "is_tuple", "flatten", "signum", "product", "inner_product", "tuple_max",
    "elem_scale", "shape_div", "prefix_product", "idx2crd", "crd2idx", "crd2crd", "slice_",
    "has_none",
    "F2", "ArithTuple", "ScaledBasis", "E", "is_stride_scalar", "basis_repr", "is_basis",
    "proj", "unit", "in_bounds",
    "ModeOpDecorator", "wrap", "unwrap", "get", "lift", "select", "take", "transform_leaf",
    "transform_apply_leaf", "leaves", "unflatten", "repeat_like", "product_each", "dice_",
    "is_htuple", "profile", "zip_leaves",
    "LayoutBase", "is_layout", "Layout", "make_layout", "size", "cosize", "coalesce", "filter",
    "composition", "complement", "right_inverse", "left_inverse", "logical_divide",
    "logical_product", "hier_unzip", "zipped_divide", "tiled_divide", "zipped_product",
    "tiled_product", "blocked_product", "raked_product", "slice_and_offset", "LayoutError",
    "shape", "stride", "rank", "depth", "coshape", "coprofile", "congruent", "weakly_congruent",
    "compatible", "tiler_to_layout", "make_layout_like", "make_ordered_layout",
    "greatest_common_domain", "coalesce_z", "layout_add", "recast", "nullspace",
    "common_refinement", "common_coarsening",
    "shiftr", "shiftl", "Swizzle", "ComposedLayout",
    "Accessor", "MutableAccessor", "Ptr", "Array", "ImplicitAccessor", "Tensor", "make_tensor",
    "identity_tensor", "is_tensor",
    "Integer",
    "StrideScalar", "register_integer_type", "HTuple", "Profile", "IntTuple", "Shape", "Coord",
    "Stride", "Tiler",
]
