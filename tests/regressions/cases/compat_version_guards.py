"""equinox 0.13.8 `internal/_primitive.py`, `_ad.py`; dm-haiku 0.0.17 `_src/jaxpr_info.py`; flax
(ux-review B1): version-compatibility code keeps the old JAX spelling in a branch that only an
older JAX runs. JAX8xx findings there are false positives, and their "safe" rename made both
branches identical, so the fallback failed on the old JAX it exists for. One case per guard
form; the same references outside a guard stay true positives."""

import jax
import jax.numpy as jnp
from packaging.version import Version

# `if hasattr(new): new else: old` (equinox _primitive.py)
if hasattr(jax.extend.core, "mapped_aval"):
    _mapped_aval = jax.extend.core.mapped_aval
else:
    _mapped_aval = jax.core.mapped_aval

# `if not hasattr(...)`: the body is the old branch
if not hasattr(jax, "typeof"):
    _get_aval = jax.core.get_aval

# conditional expression (equinox _ad.py)
aval_of = jax.typeof if hasattr(jax, "typeof") else jax.core.get_aval

# `try: new / except AttributeError: old` (haiku jaxpr_info.py)
try:
    DropVar = jax.extend.core.DropVar
except AttributeError:
    DropVar = jax.core.DropVar

# `try: from new import x / except ImportError: from old import x`
try:
    from jax.extend.core import Primitive
except ImportError:
    from jax.core import Primitive

my_p = Primitive("my_prim")

# `try: old / except ImportError: fallback`: the shim tries the removed API (a new user's
# report, stop 52: JAX804 in the default selection on a guarded import)
try:
    from jax.experimental.maps import xmap  # old JAX
except ImportError:
    xmap = None
try:
    tree_multimap = jax.tree_multimap
except AttributeError:
    tree_multimap = None

# `jax.__version_info__` comparisons, either operand order
if jax.__version_info__ < (0, 4, 36):
    tree_map = jax.tree_map
else:
    tree_map = jax.tree.map
if (0, 5) > jax.__version_info__:
    config_ok = jax.config.update("jax_dynamic_shapes", True)

# `jax.__version__` through `packaging.version`, directly and via a module-level name
if Version(jax.__version__) >= Version("0.8.0"):
    enable_x64 = jax.enable_x64
else:
    enable_x64 = jax.experimental.enable_x64
_JAX_VERSION = Version(jax.__version__)
if _JAX_VERSION < Version("0.10"):
    clip = jnp.clip(jnp.ones(3), a_min=0.0)

# `tuple(map(int, jax.__version__.split(".")[:2]))` bound to a name
_JAX = tuple(map(int, jax.__version__.split(".")[:2]))
if _JAX >= (0, 7):
    pass
else:
    replicated = jax.device_put_replicated

# the old API itself, proved present by `hasattr`
if hasattr(jax.core, "get_aval"):
    shape_of = jax.core.get_aval(1.0).shape

# `with mesh:` in the branch for JAX without `jax.set_mesh`
mesh = jax.make_mesh((1,), ("x",))
if hasattr(jax, "set_mesh"):
    with jax.set_mesh(mesh):
        pass
else:
    with mesh:
        pass

# outside any guard: still true positives
try:
    import yaml  # noqa: F401 - not a JAX fallback: its handler is not compatibility code
except ImportError:
    flat = jax.tree_leaves({"a": 1})  # error: JAX801
aval = jax.core.get_aval(1.0)  # error: JAX806
# a `try` around code that is no shim (a call for its effect) still reports what fails in it
try:
    print(jax.tree_leaves({"a": 1}))  # error: JAX801
except AttributeError:
    pass
leaves = jax.tree_map(abs, [1])  # error: JAX801
