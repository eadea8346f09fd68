# source: https://github.com/jax-ml/jax/pull/16430
# family: control-flow
# The fix: the default is decided on the Python value, outside the trace.
import jax
import jax.numpy as jnp


@jax.jit
def _sample_logits(logits, temperature):
    return jax.nn.softmax(logits / temperature)


def sample_logits(logits, temperature=None):
    return _sample_logits(logits, 1.0 if temperature is None else temperature)


if __name__ == "__main__":
    print(sample_logits(jnp.arange(3.0), 0.5))
