# source: https://github.com/mlysy/pfjax/issues/3
# family: control-flow
# The fix proposed in the issue: jnp.sign instead of a branch.
import jax
import jax.numpy as jnp


def mwg_adapt(rw_sd, accept_rate, n_iter, targ_acc=0.44):
    delta = jnp.power(n_iter, -0.5)
    low_acc = jnp.sign(targ_acc - accept_rate)
    return jnp.exp(jnp.log(rw_sd) - delta * low_acc)


@jax.jit
def adapt_step(rw_sd, accept_rate, n_iter):
    return mwg_adapt(rw_sd, accept_rate, n_iter)


if __name__ == "__main__":
    print(adapt_step(jnp.array(1.0), jnp.array(0.3), 10))
