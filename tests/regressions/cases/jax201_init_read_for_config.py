"""A helper that returns `{"cfg": ..., "weights": <drawn from the key>}` called only for its
`["cfg"]` consumes nothing that is used, and neither does an `init` on a resume path whose
weights are replaced by a checkpoint's (v16 rows, tuning material: orginos/jaxQFT
phi4_rg_coarse_eta_flow.py:275-286 `_init_local_patch_mlp(key, ...)` read for its
`["cfg"]`, train_mg_single.py:170-182 `init_mgflow(key, ...)` on the resume path, JAX201;
`key_products.products_unread`). The twins read the drawn weights, or the whole result."""

import jax


def _init_mlp(key, n):
    k1, k2 = jax.random.split(key)
    return {"w1": jax.random.normal(k1, (n, n)), "w2": jax.random.normal(k2, (n,))}


def _init_patch(key, n, radius):
    offsets = tuple(range(radius))
    return {"cfg": {"n": int(n), "offsets": offsets}, "weights": _init_mlp(key, n)}


def init_flow(key, n, depth):
    cfg = {"n": n}
    weights = {}
    layers = []
    for _ in range(depth):
        key, k = jax.random.split(key)
        layers.append(_init_patch(k, n, 2)["weights"])
    weights["layers"] = layers
    weights["head"] = [_init_mlp(k, n) for k in jax.random.split(key, 2)]
    return {"cfg": cfg, "weights": weights}


def build(key, n):
    conditioner = _init_patch(key, n, 2)
    conditioner_cfg = conditioner["cfg"]
    keys = jax.random.split(key, 3)
    return conditioner_cfg, keys


def per_level_configs(key, widths):
    return tuple(_init_patch(key, w, 2)["cfg"] for w in widths)


def resume(key, ckpt, n):
    model = init_flow(key, n, 3)
    cfg = model["cfg"]
    weights = ckpt["weights"]
    key, sub = jax.random.split(key)
    return cfg, weights, sub


def twin_weights(key, n):
    conditioner = _init_patch(key, n, 2)
    w = conditioner["weights"]
    keys = jax.random.split(key, 3)  # error: JAX201
    return w, keys


def twin_whole(key, n):
    model = init_flow(key, n, 3)
    keys = jax.random.split(key, 3)  # error: JAX201
    return model, keys


def twin_weights_per_level(key, widths):
    return tuple(_init_patch(key, w, 2)["weights"] for w in widths)  # error: JAX201
