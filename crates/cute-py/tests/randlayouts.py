"""Random layouts for the property tests (shared by the tests that compare with legacy pycute)."""

import random

LEAVES = [1, 2, 2, 3, 4, 4, 6, 8]


def rand_shape(rng: random.Random, max_rank: int = 3):
    rank = rng.randint(1, max_rank)
    modes = []
    for _ in range(rank):
        if rng.random() < 0.3:
            modes.append(tuple(rng.choice(LEAVES) for _ in range(rng.randint(1, 3))))
        else:
            modes.append(rng.choice(LEAVES))
    if rank == 1 and rng.random() < 0.5 and not isinstance(modes[0], tuple):
        return modes[0]
    return tuple(modes)


def leaves(t):
    if isinstance(t, tuple):
        out = []
        for x in t:
            out.extend(leaves(x))
        return out
    return [t]


def unflatten(vals, like):
    it = iter(vals)

    def walk(t):
        if isinstance(t, tuple):
            return tuple(walk(x) for x in t)
        return next(it)

    return walk(like)


def injective_strides(rng: random.Random, shape):
    """Compact strides of a random order of the leaves, with random gaps: injective."""
    ls = leaves(shape)
    order = list(range(len(ls)))
    rng.shuffle(order)
    strides = [0] * len(ls)
    cur = 1
    for k in order:
        cur *= rng.choice([1, 1, 1, 2, 3])
        strides[k] = cur
        cur *= ls[k]
    return unflatten(strides, shape)


def any_strides(rng: random.Random, shape):
    ls = leaves(shape)
    return unflatten([rng.choice([0, 1, 1, 2, 3, 4, 6, 8, 12, 16, 32]) for _ in ls], shape)


def rand_layout(rng: random.Random, injective: bool = False, max_rank: int = 3):
    s = rand_shape(rng, max_rank)
    if injective or rng.random() < 0.6:
        return s, injective_strides(rng, s)
    return s, any_strides(rng, s)
