# source: https://github.com/google-deepmind/tapnet/issues/44
# family: recompilation
# The fix (the thread's): pad every video to one fixed length so the input shape, and the
# compiled program, stay the same; cut the padded frames off the result.
import jax
import jax.numpy as jnp

MAX_FRAMES = 48


def model_apply(params, frames, query_points):
    feats = jnp.mean(frames, axis=(2, 3))
    return jnp.einsum("tc,qc->qt", feats * params, query_points)


model_apply = jax.jit(model_apply)


def inference(params, frames, query_points):
    num_frames = frames.shape[0]
    padded = jnp.pad(frames, ((0, MAX_FRAMES - num_frames), (0, 0), (0, 0), (0, 0)))
    return model_apply(params, padded, query_points)[:, :num_frames]


if __name__ == "__main__":
    params = jnp.ones(3)
    query_points = jnp.ones((5, 3))
    for num_frames in [24, 30, 17, 41]:
        frames = jnp.ones((num_frames, 3, 8, 8))
        inference(params, frames, query_points).block_until_ready()
