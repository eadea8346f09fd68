"""e3nn/e3nn-jax e3nn_jax/experimental/linear_shtp.py:44-48 and :94 (JAX111 x2, JAX110 x2,
precision v9 check set, read by an untuned reader): a flax Module whose `__call__` takes
`direction: e3nn.IrrepsArray` through `import e3nn_jax as e3nn` and tests
`direction.irreps`, pytree aux data (a Python value under jit). Two facts were missing: the
module names no transform, so it got no kinds from other modules (`ModuleSummary.traced` now
counts flax/equinox Module classes), and the class is named through the package alias
(`ModuleSummary.annotated`: its defining module's static attributes are read). The near miss,
a test on the array leaf, still fires. It lives in a package, as the original does: a
package's Modules are its users' to apply under jit (analysis/applied_modules.py)."""

import flax
import jax.numpy as jnp
import pkg as P


class LinearSHTP(flax.linen.Module):
    mix: bool = True

    @flax.linen.compact
    def __call__(self, input: P.IrrepsArray, direction: P.IrrepsArray) -> P.IrrepsArray:
        assert direction.shape == (3,)
        assert len(direction.irreps) == 1
        ird = direction.irreps[0]
        assert ird in ["1o", "1e"]
        gimbal_lock = jnp.abs(direction.array[1]) > 0.99
        if ird == "1o":
            gimbal_lock = ~gimbal_lock
        if direction.array[0] > 0.99:  # error: JAX110
            gimbal_lock = ~gimbal_lock
        return P.IrrepsArray(input.irreps, jnp.where(gimbal_lock, input.array, -input.array))
