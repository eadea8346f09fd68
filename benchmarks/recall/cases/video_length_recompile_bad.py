# source: https://github.com/google-deepmind/tapnet/issues/44
# family: recompilation
# expect: JAX404
# check: compiles:model_apply>1
# TAPIR inference on a list of videos: `model_apply = jax.jit(model.apply)` is fine, but
# each video has its own number of frames, so every new input shape compiles again.
import jax
import jax.numpy as jnp


def model_apply(params, frames, query_points):
    feats = jnp.mean(frames, axis=(2, 3))
    return jnp.einsum("tc,qc->qt", feats * params, query_points)


model_apply = jax.jit(model_apply)


def inference(params, frames, query_points):
    return model_apply(params, frames, query_points)


if __name__ == "__main__":
    params = jnp.ones(3)
    query_points = jnp.ones((5, 3))
    for num_frames in [24, 30, 17, 41]:
        frames = jnp.ones((num_frames, 3, 8, 8))
        inference(params, frames, query_points).block_until_ready()
