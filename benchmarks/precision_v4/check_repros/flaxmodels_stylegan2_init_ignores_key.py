"""Does flaxmodels' StyleGAN2 `Module.init(key, ...)` draw from `key`?

Every parameter is made with `self.param(name, init_fn=lambda *_: w)` where `w` comes from
the module field `rng` (default PRNGKey(0)), so two different init keys should give
identical parameters. Run from the worktree root; imports the reviewed repository's code.
"""

import sys
import types

import jax
import jax.numpy as jnp

# h5py/requests are only used to load pretrained weights; stub them
for _m in ("h5py", "requests", "tqdm"):
    sys.modules.setdefault(_m, types.ModuleType(_m))
sys.modules["h5py"].Group = sys.modules["h5py"].File = object
sys.modules["tqdm"].tqdm = object
# the repository still calls jnp.reshape(x, newshape=...), removed in JAX 0.12
_reshape = jnp.reshape
jnp.reshape = lambda a, shape=None, newshape=None, **kw: _reshape(
    a, shape if newshape is None else newshape, **kw
)
# a bare package object, so that flaxmodels/__init__ (which imports every model) is skipped
_pkg = types.ModuleType("flaxmodels")
_pkg.__path__ = ["/work/precision-v4/repos/matthias-wright+flaxmodels/flaxmodels"]
sys.modules["flaxmodels"] = _pkg
from flaxmodels.stylegan2 import discriminator, generator  # noqa: E402

for name, mod, args in [
    ("Generator", generator.Generator(resolution=32, fmap_base=256), (jnp.ones((1, 512)),)),
    (
        "Discriminator",
        discriminator.Discriminator(resolution=32, fmap_base=256),
        (jnp.ones((1, 32, 32, 3)),),
    ),
]:
    a = mod.init(jax.random.PRNGKey(0), *args)
    b = mod.init(jax.random.PRNGKey(123), *args)
    same = jax.tree_util.tree_all(
        jax.tree_util.tree_map(lambda x, y: bool(jnp.array_equal(x, y)), a, b)
    )
    n = len(jax.tree_util.tree_leaves(a))
    print(name, n, "leaves; identical for init keys 0 and 123:", same)
