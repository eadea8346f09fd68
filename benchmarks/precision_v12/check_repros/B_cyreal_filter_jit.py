"""smorad/cyreal examples/mnist_equinox.py:97: `eqx.filter_jit(eqx.filter_vmap(model))(x)`
built anew in evaluate() each epoch (model = eqx.combine(new params, static)).
Does it trace/compile again on every call?  Count traces of the model body."""

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr
import optax

TRACES = [0]


class Counted(eqx.Module):
    mlp: eqx.nn.MLP

    def __call__(self, x):
        TRACES[0] += 1
        return self.mlp(x)


model = Counted(eqx.nn.MLP(784, 10, width_size=32, depth=2, key=jr.PRNGKey(0)))
params, static = eqx.partition(model, eqx.is_array)
opt = optax.adam(1e-3)
st = opt.init(params)
x = jnp.ones((8, 784))


def evaluate(p):
    m = eqx.combine(p, static)
    return eqx.filter_jit(eqx.filter_vmap(m))(x)


for i in range(4):
    evaluate(params)
    # change params as a training epoch would
    grads = jax.tree_util.tree_map(jnp.ones_like, params)
    upd, st = opt.update(grads, st, params)
    params = eqx.apply_updates(params, upd)
    print("call", i, "model traces so far:", TRACES[0])
print("equinox", eqx.__version__)
