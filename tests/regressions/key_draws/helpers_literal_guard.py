"""A helper that reads its key only when another parameter has a literal value: the calls whose
literals skip the read consume nothing (analysis/flow/key_guards.py).

Reduced from the held-out corpus (precision v6): google/init2winit
init2winit/dataset_lib/fastmri_dataset.py:364, 369, 372: one `shuffle_rng` passed to
`load_split(..., 'train'|'eval_train'|'val'|'test', hps, shuffle_rng)`, which shuffles with it
only under `if split == 'train'` (eval uses a fixed key). Settled with JAX 0.12: `get_all`
gives the train data its own permutation and the eval splits the data unshuffled, one draw
from `rng`; `get_two_train` draws the same permutation twice (`a + 8 == b`) (the near miss, marked).
"""

import jax
import jax.numpy as jnp


def load_split(data, split, rng=None):
    if split == "train":
        data = jax.random.permutation(rng, data)
    return data


def load_split_ne(data, split, rng=None):
    if split != "train":
        out = data
    else:
        out = jax.random.permutation(rng, data)
    return out


def load_split_in(data, rng, split="eval"):
    if split in ("train", "train_aug"):
        data = jax.random.permutation(rng, data)
    return data


def get_all(data, rng):
    train = load_split(data, "train", rng)
    eval_train = load_split(data, "eval_train", rng)
    val = load_split(data, "val", rng)
    test = load_split(data, split="test", rng=rng)
    return train, eval_train, val, test, load_split_ne(data, "val", rng)


def get_defaulted(data, rng):
    train = load_split_in(data, rng, "train_aug")
    evals = load_split_in(data, rng)  # `split` left at its literal default "eval"
    return train, evals


def get_two_train(data, rng):
    a = load_split(data, "train", rng)
    b = load_split(data + 8, "train", rng)  # medium: JAX201
    return a, b


def get_unknown_split(data, rng, split):
    a = load_split(data, "train", rng)
    b = load_split(data, split, rng)  # medium: JAX201
    return a, b


if __name__ == "__main__":
    data = jnp.arange(8)
    print([x.tolist() for x in get_all(data, jax.random.key(0))])
    a, b = get_two_train(data, jax.random.key(1))
    print(a.tolist(), b.tolist(), bool((a + 8 == b).all()))
