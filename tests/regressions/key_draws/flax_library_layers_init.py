"""JAX201 on `init` of a flax.linen library layer itself (issue 24: "`model.init(key, x)`
twice", "`init` in a list comprehension over layers with one key"): `nn.Dense(3)` makes its
kernel with the random default `lecun_normal`, so two `init`s with one key give identical
weights (checked with flax 0.12 / JAX 0.12: identical kernels). Proven (high) for an instance
made by a constructor call in place, a name bound once to one, or the loop variable of a
`for`/comprehension over a list of them (a display or a comprehension) whose results are
kept (a loop over a written-out list whose draws stay in the iteration is a sweep over
configurations: common random numbers on purpose, JAX202's exemption).

Near misses (medium: the layer may draw nothing): a zeros `kernel_init`, a layer built
with positional arguments past the features (an initialiser may be among them), a list that
also holds something else, and a loop that rebinds its variable.
"""

import flax.linen as nn
import jax
import jax.numpy as jnp

k1, k2, k3, k5, k6, k7 = jax.random.split(jax.random.PRNGKey(0), 6)
x = jnp.ones((1, 3))

l1 = nn.Dense(3)
l2 = nn.Dense(3)
p1 = l1.init(k1, x)
p2 = l2.init(k1, x)  # error: JAX201

layers = [nn.Dense(3) for _ in range(3)]
params = [layer.init(k2, x) for layer in layers]  # error: JAX201

convs = [nn.Dense(4), nn.Conv(4, (3, 3))]
conv_params = []
for conv in convs:
    conv_params.append(conv.init(k3, jnp.ones((1, 8, 8, 3))))  # error: JAX201

z1 = nn.Dense(3, kernel_init=nn.initializers.zeros)
z2 = nn.Dense(3, kernel_init=nn.initializers.zeros)
r1 = z1.init(k5, x)
r2 = z2.init(k5, x)  # medium: JAX201

mixed = [nn.Dense(3), nn.LayerNorm()]
outs = [m.init(k6, x) for m in mixed]  # medium: JAX201

for layer in layers:
    layer = layer.clone(kernel_init=nn.initializers.ones)
    layer.init(k7, x)  # medium: JAX201
