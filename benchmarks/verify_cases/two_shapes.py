import jax


def init(key):
    params = []
    for n_in, n_out in [(4, 8), (8, 1)]:
        params.append(jax.random.normal(key, (n_in, n_out)))  # sharp: JAX201
    return params


if __name__ == "__main__":
    init(jax.random.key(0))
