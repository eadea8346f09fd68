"""JAX110: a script that defines a flax Module and only calls `init`/`apply` eagerly, and
that no module naming a transform imports: nothing applies the Module traced, so its `if`
on an input is ordinary Python (analysis/applied_modules.py, the UNAPPLIED_MODULES
entry).

Reduced from eserie/wax-ml notebooks/advanced_state_patterns_demo.py:75-114 (v30 check set,
FP: JAX110 x4 and JAX130, tuning material): regime detectors applied through a non-jitted
`hsm.apply`. The near misses: a layer module beside it that applies no transform but that a
jitting module imports through another module (layers.py <- model.py <- train.py) is still
traced, and so is a package's Module that nothing here applies (pkg/public.py: its users
apply it).
"""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Detector(nn.Module):
    @nn.compact
    def __call__(self, vol, trend):
        if vol > 0.5:
            return "volatile"
        return "trending" if trend > 0 else "flat"


# words are not code: no jit here, no vmap, no lax.scan (applied_modules.applies_transforms)
x = jnp.ones(())
params = Detector().init(jax.random.PRNGKey(0), x, x)
print(Detector().apply(params, x, x))
