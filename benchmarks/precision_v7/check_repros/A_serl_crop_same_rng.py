"""JAX201 on serl's data_augmentation_fn (drq.py:248, vice.py:319, bc.py:29, the two
train_reward_classifier.py copies): one `rng` feeds batched_random_crop for every image key.
With two cameras of one shape (wrist_1/wrist_2, wrist_1/front: 128x128x3) every sample gets the
same crop offset in both views; with one key (bin relocation classifier: image_keys == ['front'])
there is a single draw. Copy of serl_launcher/vision/data_augmentations.py."""

from functools import partial

import jax
import jax.numpy as jnp


def random_crop(img, rng, *, padding):
    crop_from = jax.random.randint(rng, (2,), 0, 2 * padding + 1)
    crop_from = jnp.concatenate([crop_from, jnp.zeros((1,), dtype=jnp.int32)])
    padded_img = jnp.pad(img, ((padding, padding), (padding, padding), (0, 0)), mode="edge")
    return jax.lax.dynamic_slice(padded_img, crop_from, img.shape), crop_from


@partial(jax.jit, static_argnames=("padding", "num_batch_dims"))
def batched_offsets(img, rng, *, padding, num_batch_dims=1):
    img = jnp.reshape(img, (-1, *img.shape[num_batch_dims:]))
    rngs = jax.random.split(rng, img.shape[0])
    _, offs = jax.vmap(lambda i, r: random_crop(i, r, padding=padding))(img, rngs)
    return offs


rng = jax.random.PRNGKey(0)
obs = {
    "wrist_1": jnp.zeros((8, 1, 128, 128, 3), jnp.uint8),
    "wrist_2": jnp.ones((8, 1, 128, 128, 3), jnp.uint8),
}
offs = {k: batched_offsets(v, rng, padding=4, num_batch_dims=2) for k, v in obs.items()}
print("same crop offsets on both cameras:", bool((offs["wrist_1"] == offs["wrist_2"]).all()))
print(offs["wrist_1"][:3].tolist(), offs["wrist_2"][:3].tolist())
