# source: https://github.com/jax-ml/jax/pull/5905
# family: side-effects
# expect: JAX502
# check: stdout:calls counted: 1
# A step counter kept on the object and incremented inside the jitted method: the Python
# side effect runs once, at trace time, not once per call (JAX-101's "expect the side
# effects of a JAX-transformed function to run once").
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self):
        self.count = 0
        self.step = jax.jit(self._step)

    def _step(self, w, g):
        self.count += 1
        return w - 0.1 * g


if __name__ == "__main__":
    trainer = Trainer()
    w = jnp.ones(3)
    for _ in range(5):
        w = trainer.step(w, w)
    print("calls counted:", trainer.count)
