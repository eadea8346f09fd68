# source: https://github.com/jax-ml/jax/issues/170
# family: removed-api
# expect: JAX804
# check: error:ImportError
# jax.experimental.stax (moved to jax.example_libraries, then no longer importable here).
import jax.numpy as np
from jax import random
from jax.experimental import stax
from jax.experimental.stax import Dense, Relu

if __name__ == "__main__":
    init_fun, apply_fun = stax.serial(Dense(8), Relu, Dense(3))
    _, params = init_fun(random.PRNGKey(0), (-1, 4))
    print(apply_fun(params, np.ones((2, 4))).shape)
