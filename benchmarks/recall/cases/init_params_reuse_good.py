# source: https://theneuralbase.com/jax/learn/intermediate/best-practices-for-key-management/
# family: prng
# The fix: split first.
import jax
import jax.random as jr


def init_layer(key, n_in, n_out):
    w_key, b_key = jr.split(key)
    w = jr.normal(w_key, (n_in, n_out)) / n_in**0.5
    b = jr.normal(b_key, (n_out,))
    return {"w": w, "b": b}


if __name__ == "__main__":
    params = init_layer(jr.key(42), 3, 3)
    print(jax.tree.map(lambda a: a.shape, params))
