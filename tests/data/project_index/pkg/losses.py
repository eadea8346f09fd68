import jax.numpy as jnp


def loss_fn(params, batch):
    loss = jnp.mean((params["w"] * batch - 1.0) ** 2)
    print(float(loss))
    return loss


def clip(x, limit):
    if x > limit:
        return limit
    return x


def warmup(step, total):
    # near miss: only ever called with Python ints, so never traced
    if step < total:
        return step / total
    return 1.0
