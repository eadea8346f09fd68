"""orginos/jaxQFT jaxqft/models/phi4_mg.py:169-210, reduced: `init_mgflow` returns its
configuration next to weights drawn from the key, in a dict display."""

import jax


def init_mgflow(key, size, depth=2):
    cfg = {"size": int(size), "depth": int(depth)}
    weights = {}
    blocks = []
    for _ in range(depth):
        keys = jax.random.split(key, 3)
        key = keys[0]
        blocks.append([jax.random.normal(k, (size, size)) for k in keys[1:]])
    weights["cflow"] = blocks
    return {"cfg": cfg, "weights": weights}
