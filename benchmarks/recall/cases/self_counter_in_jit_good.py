# source: https://github.com/jax-ml/jax/pull/5905
# family: side-effects
# The fix: count outside the traced function.
import jax
import jax.numpy as jnp


@jax.jit
def _step(w, g):
    return w - 0.1 * g


class Trainer:
    def __init__(self):
        self.count = 0

    def step(self, w, g):
        self.count += 1
        return _step(w, g)


if __name__ == "__main__":
    trainer = Trainer()
    w = jnp.ones(3)
    for _ in range(5):
        w = trainer.step(w, w)
    print("calls counted:", trainer.count)
