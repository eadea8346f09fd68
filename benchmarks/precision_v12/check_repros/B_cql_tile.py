"""jax_learning CQLSAC: Python-int cql_num_action_samples passed through eqx.filter_grad
inside eqx.filter_jit (closure attribute) stays concrete, so jnp.tile(x, n) works."""

import jax
import jax.numpy as jnp

try:
    import equinox as eqx
except ImportError:
    eqx = None


class Cfg:
    n = 10


cfg = Cfg()

if eqx is not None:

    @eqx.filter_grad(has_aux=True)
    def q_loss(w, obss, n: int):
        t = jnp.tile(obss, n).reshape((n * len(obss), *obss.shape[1:]))
        return jnp.sum(t * w), {"n": n}

    def update(w, obss):
        return q_loss(w, obss, cfg.n)

    g, aux = eqx.filter_jit(update)(jnp.ones(()), jnp.ones((4, 3)))
    print("eqx ok", g, aux)
else:
    # same semantics with plain jax: int closed over / passed as python value is static
    def q_loss(w, obss, n):
        t = jnp.tile(obss, n).reshape((n * len(obss), *obss.shape[1:]))
        return jnp.sum(t * w)

    print(
        "jax ok",
        jax.jit(lambda w, o: jax.grad(q_loss)(w, o, cfg.n))(jnp.ones(()), jnp.ones((4, 3))),
    )
