import jax

from pkg.bessel import log_k, log_k_twin

batched = jax.jit(lambda z: jax.vmap(log_k)(z))
batched_twin = jax.jit(lambda z: jax.vmap(lambda q: log_k_twin(q, backend="cpu"))(z))
