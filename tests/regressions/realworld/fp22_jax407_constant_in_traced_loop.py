"""JAX407 FP: the `jnp.array([...])` constants sit in a loop over a few dict keys inside a
function that is jitted (dreamerv3 jits `report` through its own `transform.apply` wrapper).
Under jit the loop is unrolled at trace time and the constants are folded into the program:
there is no per-step host-to-device copy to hoist.

From danijar/dreamerv3 dreamerv3/agent.py:290-301 (`Agent.report`, video borders).
"""
import jax
import jax.numpy as jnp


def apply(fn):
    """Stands in for dreamerv3's embodied/jax/transform.apply (which calls jax.jit)."""
    return jax.jit(fn)


def report(obs):
    metrics = {}
    for key in obs:
        video = obs[key]
        T = video.shape[0]
        border = jnp.full((T, 3), jnp.array([0, 255, 0]), jnp.uint8)
        border = border.at[T // 2 :].set(jnp.array([255, 0, 0], jnp.uint8))
        metrics[key] = jnp.concatenate([video, border], 1)
    return metrics


report_fn = apply(report)
print(report_fn({"image": jnp.zeros((4, 3), jnp.uint8)})["image"].shape)
