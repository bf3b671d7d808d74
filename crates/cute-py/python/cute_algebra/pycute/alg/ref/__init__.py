"""Reference algorithms of the paper's PyCuTe (``pycute.alg.ref``): the plain loops that the
layout algebra reshapes. ``copy(src, dst)`` writes ``dst[i] = src[i]`` for every index ``i`` in
order; ``gemm(A, B, C)`` accumulates ``C[m,n,l] += A[m,k,l] * B[n,k,l]``. Both read and write
through the tensors' accessors, so any layout pair (transposes, broadcasts, gathers, folded
multi-modes) is one call.

>>> from cute_algebra.pycute import Layout, make_tensor
>>> A = make_tensor(Layout((2, 3), (3, 1)))
>>> for i in range(6): A[i] = i
>>> B = make_tensor(Layout((2, 3)))
>>> copy(A, B); [B[i] for i in range(6)]
[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
"""

from ... import Layout, Tensor, make_layout, rank, size

__all__ = ["copy", "gemm"]


def _size(t):
    return size(t.layout)


def copy(src, dst):
    """``dst[i] = src[i]`` for ``i`` in ``0 .. size(dst)-1``, in index order (two indices that
    ``dst`` sends to one address leave the later value there). Raises ``ValueError`` when the
    sizes differ.

    >>> from cute_algebra.pycute import Layout, make_tensor
    >>> s = make_tensor(Layout(4, 0)); s[0] = 2.0
    >>> d = make_tensor(Layout(4, 1)); copy(s, d); [d[i] for i in range(4)]
    [2.0, 2.0, 2.0, 2.0]
    """
    n, m = _size(src), _size(dst)
    if n != m:
        raise ValueError(f"copy: the source has {n} elements and the destination {m}; "
                         "a copy needs equal sizes")
    for i in range(m):
        dst[i] = src[i]


def _with_batch(t):
    """A rank-2 tensor with a size-1 third (batch) mode appended."""
    return Tensor(t.accessor, make_layout([t.layout[0], t.layout[1], Layout(1, 0)]))


def gemm(A, B, C):
    """``C[m,n,l] += A[m,k,l] * B[n,k,l]`` over all four index spaces: ``A`` is (M,K,L), ``B``
    (N,K,L) and ``C`` (M,N,L), each mode possibly a multi-mode; rank-2 operands (all three) are
    the unbatched case. Raises ``ValueError`` naming the extent that disagrees.

    >>> from cute_algebra.pycute import Layout, make_tensor
    >>> A, B, C = make_tensor((2, 3)), make_tensor((2, 3)), make_tensor((2, 2))
    >>> for i in range(6): A[i] = i; B[i] = 1
    >>> gemm(A, B, C); [C[i] for i in range(4)]
    [6.0, 9.0, 6.0, 9.0]
    """
    ranks = (rank(A.layout), rank(B.layout), rank(C.layout))
    if ranks == (2, 2, 2):
        A, B, C = _with_batch(A), _with_batch(B), _with_batch(C)
    elif ranks != (3, 3, 3):
        raise ValueError(f"gemm: the operands have ranks {ranks}; all three must be 3 "
                         "(M/N,K,L) or all 2 (unbatched)")
    M, N, K, L = size[0](C.layout), size[1](C.layout), size[1](A.layout), size[2](C.layout)
    checks = [("rows M", size[0](A.layout), M), ("columns N", size[0](B.layout), N),
              ("reduction K", size[1](B.layout), K), ("batch L of A", size[2](A.layout), L),
              ("batch L of B", size[2](B.layout), L)]
    for what, got, want in checks:
        if got != want:
            raise ValueError(f"gemm: the {what} disagree ({got} against {want})")
    for l in range(L):
        for k in range(K):
            for n in range(N):
                for m in range(M):
                    C[m, n, l] += A[m, k, l] * B[n, k, l]
