# source: https://github.com/asantini29/phentax/pull/28
# family: host-conversion
# expect: JAX101 JAX120
# check: error:ConcretizationTypeError
# A waveform class computes its number of steps with int(jnp.ceil(T / dt)) on a traced T.
import jax
import jax.numpy as jnp


class Waveform:
    def __init__(self, delta_t):
        self.delta_t = delta_t

    def initial_processing(self, T):
        n_steps = int(jnp.ceil(T / self.delta_t))
        return jnp.linspace(0.0, T, n_steps)

    def __call__(self, T):
        times = self.initial_processing(T)
        return jnp.sin(times).sum()


if __name__ == "__main__":
    wf = Waveform(0.5)
    print(jax.jit(wf.__call__)(4.0))
