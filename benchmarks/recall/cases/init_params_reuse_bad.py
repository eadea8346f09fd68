# source: https://theneuralbase.com/jax/learn/intermediate/best-practices-for-key-management/
# family: prng
# expect: JAX201
# check: keyreuse
# One key feeds both the weight and the bias initialisers of a helper.
import jax
import jax.random as jr


def init_layer(key, n_in, n_out):
    w = jr.normal(key, (n_in, n_out)) / n_in**0.5
    b = jr.normal(key, (n_out,))
    return {"w": w, "b": b}


if __name__ == "__main__":
    params = init_layer(jr.key(42), 3, 3)
    print(jax.tree.map(lambda a: a.shape, params))
