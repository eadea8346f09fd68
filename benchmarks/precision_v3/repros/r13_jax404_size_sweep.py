"""neural-tangents notebooks/learning_curves.ipynb cell 14 (JAX404): a learning-curve sweep over
training-set sizes; each size is a different linear solve and is compiled once, then reused for
every repetition. tapnet robotap/tapir_clustering.py:783: fixed chunks of 128 plus one ragged
tail: two shapes in all."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def get_mse(ktd, kdd, y_train, y_test):
    residual = y_test - ktd @ jax.scipy.linalg.solve(kdd, y_train, assume_a="pos")
    return jnp.mean(jnp.square(residual)) / 2


kdd, ktd = jnp.eye(64), jnp.ones((8, 64))
y_train, y_test = jnp.ones((64, 1)), jnp.ones((8, 1))
n_trains = [4, 16, 64]
for repeat in range(5):
    losses = [get_mse(ktd[:, :n], kdd[:n, :n], y_train[:n], y_test) for n in n_trains]

pts_eval = jax.jit(lambda idx: idx * 2)
out = [pts_eval(np.arange(i, min(300, i + 128))) for i in range(0, 300, 128)]
print(losses, len(out))
