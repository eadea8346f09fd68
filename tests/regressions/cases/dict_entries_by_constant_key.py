"""anachroni-co/capibaraGPT_v3 `core/cot/enhanced_cot_module.py:110-147` (tuning pool, JAX110
medium, read false): a method returns `{"step_embedding": array, "step_reward": float(...)}`
and the caller tests `step_output["step_reward"] < threshold`: a Python float, whatever the
embedding is. A dict display is a container of kinds, one per constant key, and a function
whose every return is one hands its caller the entries (`flow/taint_containers.py`). The near
misses: the array entry, an entry overwritten with an array, a dict updated by keys this
cannot follow, and a dict bound to something else on another path."""

import jax


def reasoning_step(x, i):
    base = 0.5
    return {"emb": x * 2, "reward": min(1.0, base + 0.03 * i), "index": i}


@jax.jit
def run(x):
    out = reasoning_step(x, 0)
    if out["reward"] < 0.5:
        return x
    if reasoning_step(x, 1)["index"] > 0:
        x = x + 1
    if reasoning_step(x, 2)["emb"].sum() > 0:  # error: JAX110
        x = x / 2
    m = {"total": x.sum(), "n": x.shape[0]}
    if m["n"] > 3:
        x = x + 1
    if m["total"] > 0:  # error: JAX110
        x = x - 1
    m["n"] = x.sum()
    if m["n"] > 0:  # error: JAX110
        x = x * 2
    return x


@jax.jit
def updated(x, extra):
    m = {"n": x.shape[0], "total": x.sum()}
    m.update(extra)
    if m["n"] > 3:  # error: JAX110
        x = x + 1
    return x


@jax.jit
def branches(x, flag: bool):
    m = {"n": x.shape[0]}
    if flag:
        m = {"n": x.sum()}
    if m["n"] > 3:  # error: JAX110
        x = x + 1
    return x
