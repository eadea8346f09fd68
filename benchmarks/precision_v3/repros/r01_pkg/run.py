import jax.numpy as jnp
from pkg.qarrays.qarray import QArray
from pkg.utils.general import ptrace
print(ptrace(QArray((2, 2), jnp.eye(4)), 0).shape)
