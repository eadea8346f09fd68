import jax


def f(x):
    return x * 2


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))  # sharp: JAX201
    print(a, b)
