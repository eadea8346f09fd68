"""A numerically stable custom derivative with `jax.custom_vjp`: softplus = log(1 + exp(x)).

Autodiff of the naive formula gives exp(x) / (1 + exp(x)) = inf / inf = nan for large x in
float32. The forward pass is stabilised with logaddexp, and the backward pass uses the closed
form d/dx softplus(x) = sigmoid(x), which never overflows.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.test_util import check_grads


def naive_softplus(x: jax.Array) -> jax.Array:
    return jnp.log1p(jnp.exp(x))


@jax.custom_vjp
def softplus(x: jax.Array) -> jax.Array:
    return jnp.logaddexp(x, 0.0)


def softplus_fwd(x: jax.Array) -> tuple[jax.Array, jax.Array]:
    return softplus(x), x  # (output, residuals saved for the backward pass)


def softplus_bwd(x: jax.Array, g: jax.Array) -> tuple[jax.Array]:
    return (g * jax.nn.sigmoid(x),)  # one cotangent per primal input


softplus.defvjp(softplus_fwd, softplus_bwd)


def main() -> None:
    x = jnp.array([-100.0, -3.0, 0.0, 3.0, 100.0], dtype=jnp.float32)
    grad = jax.jit(jax.vmap(jax.grad(softplus)))
    naive_grad = jax.jit(jax.vmap(jax.grad(naive_softplus)))

    print("naive grad: ", naive_grad(x))
    print("custom grad:", grad(x))
    assert bool(jnp.isnan(naive_grad(x)[-1]))  # the bug the custom rule fixes
    np.testing.assert_allclose(np.asarray(grad(x)), np.asarray(jax.nn.sigmoid(x)), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(softplus(x)), np.asarray(jax.nn.softplus(x)), rtol=1e-6)

    # Compare the custom VJP with finite differences where the function is well behaved.
    # Reverse mode only: a custom_vjp function has no forward-mode (jvp) rule.
    check_grads(softplus, (x[1:4],), order=1, modes=("rev",), eps=1e-2, atol=1e-2, rtol=1e-2)
    print("check_grads: ok")


if __name__ == "__main__":
    main()
