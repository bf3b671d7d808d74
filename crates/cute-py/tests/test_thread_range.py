"""A thread that a thread-value layout does not have is refused, as `cute partition --thread` and
the playground's `tv` refuse it: `tv_partition` and `partition` raise `LayoutError` (category
`OutOfRange`) naming the operation, both layouts and the domain of threads, for a thread past the
last, a negative one and one far outside; the first and the last thread are accepted."""

import numpy as np
import pytest

import cute_algebra as C
from cute_algebra import Layout, LayoutError

DATA = Layout((8, 8), (8, 1))
TV = Layout(((4, 8), 2), ((16, 1), 8))  # 32 threads, 2 values each


@pytest.mark.parametrize("thread", [32, -1, 99, 2**62])
def test_tv_partition_refuses_a_thread_outside_the_layout(thread):
    with pytest.raises(LayoutError) as e:
        C.tv_partition(DATA, TV, thread)
    msg = str(e.value)
    assert e.value.category == "OutOfRange", msg
    assert msg.startswith("tv_partition "), msg
    assert f"coordinate {thread} is outside the domain Z_32" in msg, msg
    assert "((4,8),2):((16,1),8)" in msg, msg


@pytest.mark.parametrize("thread", [32, -1])
def test_partition_of_a_tensor_refuses_a_thread_outside_the_layout(thread):
    t = C.Tensor(np.arange(64.0).reshape(8, 8))
    with pytest.raises(LayoutError) as e:
        C.partition(t, TV, thread)
    assert e.value.category == "OutOfRange"
    assert f"coordinate {thread} is outside the domain Z_32" in str(e.value)


def test_the_first_and_the_last_thread_are_accepted():
    t = C.Tensor(np.arange(64.0).reshape(8, 8))
    for thread in (0, 31):
        lay, off = C.tv_partition(DATA, TV, thread)
        assert lay.size() == 2
        assert off == C.composition(DATA, TV)((thread, 0))
        assert C.partition(t, TV, thread).to_numpy().size == 2
