# source: https://github.com/jax-ml/jax/pull/16430
# family: control-flow
# expect: JAX110
# check: error:TracerBoolConversionError
# `value or default` on a traced parameter (the review's "nullable_value or
# default_value" idiom): `or` converts the tracer to bool.
import jax
import jax.numpy as jnp


@jax.jit
def sample_logits(logits, temperature):
    temperature = temperature or 1.0
    return jax.nn.softmax(logits / temperature)


if __name__ == "__main__":
    print(sample_logits(jnp.arange(3.0), 0.5))
