# source: https://github.com/mlysy/pfjax/issues/3
# family: control-flow
# expect: JAX110
# check: error:TracerBoolConversionError
# An adaptive random-walk scale with a Python `if` on the traced acceptance rate.
import jax
import jax.numpy as jnp


def mwg_adapt(rw_sd, accept_rate, n_iter, targ_acc=0.44):
    delta = jnp.power(n_iter, -0.5)
    if targ_acc > accept_rate:
        return jnp.exp(jnp.log(rw_sd) - delta)
    return jnp.exp(jnp.log(rw_sd) + delta)


@jax.jit
def adapt_step(rw_sd, accept_rate, n_iter):
    return mwg_adapt(rw_sd, accept_rate, n_iter)


if __name__ == "__main__":
    print(adapt_step(jnp.array(1.0), jnp.array(0.3), 10))
