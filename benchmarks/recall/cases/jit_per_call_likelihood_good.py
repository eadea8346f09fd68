# source: https://github.com/jax-ml/jax/issues/2515
# family: recompilation
# The fix: build the jitted gradient once.
import numpy as onp
from jax import grad, jit
from jax.numpy import exp, log, pi, sqrt

sigma = 5.0
mu = 100.0
N = 100


def _Likelihood(s, m, w):
    return -log(1 / (s * sqrt(2.0 * pi)) * exp(-(((w - m) / s) ** 2) / 2.0)).sum()


_dev_likelihood = jit(grad(_Likelihood))


def my_dev_likelihood(pars, x):
    return _dev_likelihood(pars[0], pars[1], x)


if __name__ == "__main__":
    for ss, mm in zip(sigma + onp.arange(4) * 0.5, mu + onp.arange(4)):
        x = onp.arange(N) * 0.1 + mu
        print(my_dev_likelihood((ss, mm), x))
