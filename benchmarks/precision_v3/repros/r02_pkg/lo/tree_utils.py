import jax


def first_dim(a):
    return jax.tree_util.tree_flatten(a)[0][0].shape[0]
