# source: https://github.com/jax-ml/jax/issues/1033
# family: recompilation
# The fix: the index is an ordinary (traced) argument.
import jax


@jax.jit
def do_something_random(base_key, i):
    return jax.random.normal(jax.random.fold_in(base_key, i), (3,))


if __name__ == "__main__":
    base_key = jax.random.PRNGKey(0)
    for i in range(6):
        print(do_something_random(base_key, i))
