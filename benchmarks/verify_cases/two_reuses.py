import jax


def init(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        w = jax.random.normal(key, (n_in, n_out))  # sharp: JAX201
        params.append(w)
    return params


def main():
    key = jax.random.key(0)
    params = init(key, [4, 8, 1])
    noise = jax.random.normal(key, (16, 4))  # sharp: JAX201
    return params, noise


if __name__ == "__main__":
    main()
