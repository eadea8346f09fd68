# source: https://github.com/lindermanlab/ssm-jax/issues/37
# family: removed-api
# The fix: tree_map is the drop-in replacement.
import jax.numpy as np
from jax import tree_util


def tree_all_equal(tree1, tree2):
    equal = tree_util.tree_map(lambda x, y: np.all(x == y), tree1, tree2)
    return all(tree_util.tree_leaves(equal))


if __name__ == "__main__":
    params = {"initial": np.ones(3), "transitions": np.eye(3)}
    print(tree_all_equal(params, params))
