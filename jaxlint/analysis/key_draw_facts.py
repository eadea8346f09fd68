"""Library calls proven to draw from the PRNG key they are given, as data (beside
library_facts.py): the facts that let a key consumption through a library constructor or
initialiser count as a draw (high confidence for JAX201, analysis/flow/key_draws.py).

A consumption that is not a `jax.random` call of the module itself is only inferred to draw:
a flax `init` whose parameters all come from `lambda *_: w` (a checkpoint) or a LayerNorm
(ones) draws nothing from its key, and two such calls with one key are harmless. Each entry
here names a call that draws whatever its other arguments are, or under the conditions its
`why` states, with a program that must report the reuse at high confidence (`example`) and a
near miss that must not (`twin`); tests/test_key_draw_facts.py runs them all.

The other direction is proven too (flow/key_drawfree.py): an `init` of a module that creates
no random parameter and asks for no stream does not consume its key at all. Its library
facts are `FLAX_DRAWFREE_LAYERS` (the flax norm layers with their ones/zeros initialisers)
and the constant initialisers, each with a program in `KEY_DRAWFREE_FACTS` that must stay
silent and a twin (a random `scale_init`) that must report the reuse.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DRAWFREE_INITIALIZER_FUNCTIONS",
    "DRAWFREE_INITIALIZER_MAKERS",
    "EQUINOX_DRAWING_CONSTRUCTORS",
    "EVOSAX_KEYLESS_INITS",
    "FLAX_ACTIVATIONS",
    "FLAX_DRAWFREE_LAYERS",
    "FLAX_RANDOM_LAYERS",
    "KEY_DRAWFREE_FACTS",
    "KEY_DRAW_FACTS",
    "RANDOM_INITIALIZERS",
    "KeyDrawFact",
]


@dataclass(frozen=True)
class KeyDrawFact:
    """One library call that draws from its key. `what`: "constructor" (an equinox layer
    built with `key=`), "flax-layer" (a flax.linen layer whose parameters an `init` draws),
    "initializer" (a `jax.nn.initializers` maker whose initialiser draws from its rng),
    "dropout" (flax `nn.Dropout` made active by the `apply` call)."""

    library: str
    what: str
    name: str
    why: str
    example: str
    twin: str


# equinox layers whose `__init__` draws the weights from `key=` (every one of them makes at
# least one parameter with `jax.random`): qualname -> the most positional arguments that
# leave the key used (`Embedding(n, d, weight)`: a given weight draws nothing)
EQUINOX_DRAWING_CONSTRUCTORS: dict[str, int] = {
    **{
        f"equinox.nn.{name}": 99
        for name in (
            "Linear",
            "MLP",
            "Conv",
            "Conv1d",
            "Conv2d",
            "Conv3d",
            "ConvTranspose",
            "ConvTranspose1d",
            "ConvTranspose2d",
            "ConvTranspose3d",
            "MultiheadAttention",
            "GRUCell",
            "LSTMCell",
        )
    },
    "equinox.nn.Embedding": 2,
}
# keywords that hand equinox a ready parameter instead of drawing one
EQUINOX_GIVEN_WEIGHTS = frozenset({"weight"})

# `jax.nn.initializers` makers whose initialiser draws from its rng (`zeros`, `ones`,
# `constant` draw nothing); `flax.linen.initializers` re-exports them
_RANDOM_MAKERS = (
    "lecun_normal",
    "lecun_uniform",
    "glorot_normal",
    "glorot_uniform",
    "xavier_normal",
    "xavier_uniform",
    "he_normal",
    "he_uniform",
    "kaiming_normal",
    "kaiming_uniform",
    "normal",
    "truncated_normal",
    "uniform",
    "variance_scaling",
    "orthogonal",
    "delta_orthogonal",
)
RANDOM_INITIALIZERS = frozenset(
    f"{prefix}.{name}"
    for prefix in ("jax.nn.initializers", "flax.linen.initializers", "flax.nnx.initializers")
    for name in _RANDOM_MAKERS
)

# flax.linen layers that create a parameter with a random default initialiser when called
# inside an `init`: qualname -> (the initialiser keyword, the most positional arguments
# before it can be given positionally)
FLAX_RANDOM_LAYERS: dict[str, tuple[str, int]] = {
    "flax.linen.Dense": ("kernel_init", 1),
    "flax.linen.DenseGeneral": ("kernel_init", 2),
    "flax.linen.Conv": ("kernel_init", 6),
    "flax.linen.ConvTranspose": ("kernel_init", 6),
    "flax.linen.ConvLocal": ("kernel_init", 6),
    "flax.linen.Embed": ("embedding_init", 2),
    "flax.linen.MultiHeadDotProductAttention": ("kernel_init", 1),
    "flax.linen.SelfAttention": ("kernel_init", 1),
    "flax.linen.LSTMCell": ("kernel_init", 1),
    "flax.linen.OptimizedLSTMCell": ("kernel_init", 1),
    "flax.linen.GRUCell": ("kernel_init", 1),
}
FLAX_DROPOUT = "flax.linen.Dropout"

# flax.linen layers whose parameters all come from constant default initialisers (scale:
# ones, bias: zeros; flax 0.8-0.12), so their `init` draws nothing from its key unless an
# initialiser keyword says otherwise: qualname -> (the most positional arguments that stop
# before an initialiser, the initialiser keywords)
FLAX_DRAWFREE_LAYERS: dict[str, tuple[int, frozenset[str]]] = {
    "flax.linen.LayerNorm": (5, frozenset({"bias_init", "scale_init"})),
    "flax.linen.RMSNorm": (4, frozenset({"scale_init"})),
    "flax.linen.BatchNorm": (8, frozenset({"bias_init", "scale_init"})),
    "flax.linen.GroupNorm": (7, frozenset({"bias_init", "scale_init"})),
    "flax.linen.InstanceNorm": (5, frozenset({"bias_init", "scale_init"})),
}
# evosax (0.2, 0.3) evolution strategies whose `init(key, mean, params)` (population-based:
# `init(key, population, fitness, params)`) never reads the key: the state starts from the
# given mean or population, zeros, ones and identities. Each `_init` checked in evosax
# v0.2.0, v0.3.0 and v0.3.1 (its key parameter unused), and run with evosax 0.3.1 on JAX 0.12:
# `init` with key(0) and key(1) gives identical states. Not CR_FM_NES (draws), the SV_*
# strategies (split per population), DiffusionEvolution (reads its key) or EvoTF_ES (not
# run); evosax 0.1's `initialize(rng, params)` drew the mean and is another method. (v22
# jax_actuator CMA_ES, v29 spyx Open_ES: `es.init(key, ...)` then a split of the same key.)
EVOSAX_KEYLESS_INITS = frozenset(
    {
        "ARS", "ASEBO", "CMA_ES", "DiscoveredES", "ESMC", "GradientlessDescent", "GuidedES",
        "HillClimbing", "iAMaLGaM_Full", "iAMaLGaM_Univariate", "LearnedES", "LM_MA_ES",
        "MA_ES", "NoiseReuseES", "Open_ES", "PersistentES", "PGPE", "RandomSearch", "Rm_ES",
        "Sep_CMA_ES", "SimpleES", "SimulatedAnnealing", "SNES", "xNES",
        "DifferentialEvolution", "GESMR_GA", "LearnedGA", "MR15_GA", "PSO", "SAMR_GA",
        "SimpleGA",
    }
)  # fmt: skip
_INIT_PREFIXES = ("jax.nn.initializers", "flax.linen.initializers", "flax.nnx.initializers")
# initialisers that ignore their rng: the functions themselves, and the makers of one
DRAWFREE_INITIALIZER_FUNCTIONS = frozenset(
    f"{prefix}.{name}" for prefix in _INIT_PREFIXES for name in ("zeros", "ones")
)
DRAWFREE_INITIALIZER_MAKERS = frozenset(
    f"{prefix}.{name}"
    for prefix in _INIT_PREFIXES
    for name in ("zeros_init", "ones_init", "constant")
)
# flax.linen's activation functions (jax.nn's, re-exported): arrays in, arrays out
FLAX_ACTIVATIONS = frozenset(
    f"flax.linen.{name}"
    for name in (
        "relu", "relu6", "gelu", "silu", "swish", "sigmoid", "tanh", "softmax", "log_softmax",
        "elu", "celu", "selu", "leaky_relu", "softplus", "soft_sign", "hard_tanh", "glu",
        "log_sigmoid", "one_hot", "standardize", "logsumexp", "hard_sigmoid", "hard_silu",
    )
)  # fmt: skip


def _flax_program(body: str, params: str = "x") -> str:
    return (
        "import flax.linen as nn\nimport jax\nimport jax.numpy as jnp\n\n\n"
        f"class Net(nn.Module):\n    @nn.compact\n    def __call__(self, {params}):\n{body}\n\n\n"
        "def run(x):\n    key = jax.random.key(0)\n"
        "    a = Net().init(key, x)\n"
        "    b = Net().init(key, x + 1)  # error: JAX201\n"
        "    return a, b\n"
    )


def _unmarked(program: str) -> str:
    return program.replace("  # error: JAX201", "")


def _eqx_program(call: str) -> str:
    return (
        "import equinox as eqx\nimport jax\n\n\ndef run():\n    key = jax.random.key(0)\n"
        f"    a = eqx.nn.{call}\n    b = eqx.nn.{call}  # error: JAX201\n    return a, b\n"
    )


def _eqx_split(call: str) -> str:
    return (
        "import equinox as eqx\nimport jax\n\n\ndef run():\n"
        "    k1, k2 = jax.random.split(jax.random.key(0))\n"
        f"    a = eqx.nn.{call.replace('key=key', 'key=k1')}\n"
        f"    b = eqx.nn.{call.replace('key=key', 'key=k2')}\n    return a, b\n"
    )


_DROPOUT = (
    "import flax.linen as nn\nimport jax\n\n\nclass Net(nn.Module):\n"
    "    @nn.compact\n    def __call__(self, x, train):\n"
    "        return nn.Dropout(0.5, deterministic=not train)(x)\n\n\n"
    "def run(params, x):\n    key = jax.random.key(0)\n    outs = []\n"
    "    for _ in range(3):\n"
    '        outs.append(Net().apply(params, x, train={train}, rngs={{"dropout": key}}))'
    "{mark}\n    return outs\n"
)

KEY_DRAW_FACTS: tuple[KeyDrawFact, ...] = (
    *(
        KeyDrawFact(
            "equinox",
            "constructor",
            q,
            "the layer's `__init__` draws its weights from `key=`: two layers built from one "
            "key start from the same draws",
            example=_eqx_program(call),
            twin=_eqx_split(call),
        )
        for q, call in (
            ("equinox.nn.Linear", "Linear(4, 4, key=key)"),
            ("equinox.nn.MLP", "MLP(4, 4, 8, 2, key=key)"),
            ("equinox.nn.Conv2d", "Conv2d(3, 8, 3, key=key)"),
            ("equinox.nn.MultiheadAttention", "MultiheadAttention(2, 8, key=key)"),
            ("equinox.nn.GRUCell", "GRUCell(4, 8, key=key)"),
            ("equinox.nn.LSTMCell", "LSTMCell(4, 8, key=key)"),
        )
    ),
    KeyDrawFact(
        "equinox",
        "constructor",
        "equinox.nn.Embedding",
        "an `Embedding` draws its table from `key=` unless a `weight=` is given",
        example=_eqx_program("Embedding(10, 4, key=key)"),
        twin=_unmarked(_eqx_program("Embedding(weight=jax.numpy.ones((10, 4)), key=key)")),
    ),
    *(
        KeyDrawFact(
            "flax.linen",
            "flax-layer",
            q,
            "called in `__call__` on every path, the layer creates its parameter with a random "
            "default initialiser from the `init` key (a constant `kernel_init` draws nothing)",
            example=_flax_program(f"        return nn.{layer}(x)"),
            twin=_unmarked(_flax_program(f"        return nn.{twin}(x)")),
        )
        for q, layer, twin in (
            ("flax.linen.Dense", "Dense(4)", "Dense(4, kernel_init=nn.initializers.zeros)"),
            (
                "flax.linen.Conv",
                "Conv(4, (3, 3))",
                "Conv(4, (3, 3), kernel_init=nn.initializers.ones)",
            ),
            ("flax.linen.Embed", "Embed(10, 4)", "Embed(10, 4, embedding_init=lambda *_: 0.0)"),
        )
    ),
    KeyDrawFact(
        "flax.linen",
        "initializer",
        "jax.nn.initializers.normal",
        "`self.param(name, init, ...)` with a random initialiser draws the parameter from the "
        "`init` key; `lambda *_: w` (a checkpoint) draws nothing",
        example=_flax_program(
            '        w = self.param("w", nn.initializers.normal(0.02), (4,))\n        return x * w'
        ),
        twin=_unmarked(
            _flax_program(
                '        w = self.param("w", lambda *_: jnp.ones(4))\n        return x * w'
            )
        ),
    ),
    KeyDrawFact(
        "flax.linen",
        "flax-layer",
        "flax.linen.Dense (under a branch)",
        "a layer called only under a branch of `__call__` may create no parameter",
        example=_flax_program(
            "        y = nn.Dense(4)(x)\n        return y if flag else x", "x, flag=True"
        ),
        twin=_unmarked(
            _flax_program(
                "        if flag:\n            x = nn.Dense(4)(x)\n        return x", "x, flag=True"
            )
        ),
    ),
    KeyDrawFact(
        "flax.linen",
        "dropout",
        FLAX_DROPOUT,
        "`apply(..., rngs={'dropout': k})` into a module whose `__call__` always runs an "
        "`nn.Dropout` with a rate in (0, 1) that the call's arguments make non-deterministic "
        "draws the mask from `k`",
        example=_DROPOUT.format(train="True", mark="  # error: JAX201"),
        twin=_DROPOUT.format(train="False", mark=""),
    ),
)


def _norm_program(layer: str, mark: str = "") -> str:
    return (
        "import flax.linen as nn\nimport jax\nimport jax.numpy as jnp\n\n\ndef run():\n"
        "    key = jax.random.key(0)\n    x = jnp.ones((4, 8))\n"
        "    dense = nn.Dense(3).init(key, x)\n"
        f"    return dense, nn.{layer}.init(key, x){mark}\n"
    )


# flax norm layers whose `init` draws nothing (`FLAX_DRAWFREE_LAYERS`, flow/key_drawfree.py):
# the example hands the key of a `Dense` init to `init` and must report nothing, at any
# confidence (a `jax.random` draw would be independent of any flax init anyway: flax folds in
# module paths, `KeyDraws.folds_module_paths`);
# the twin gives the layer a random initialiser and must report the reuse (tests/
# test_key_draw_facts.py; checked with JAX 0.12: `init` with PRNGKey(0) and PRNGKey(1) gives
# identical variables for the defaults, different ones for `scale_init=normal()`)
_RANDOM_SCALE = ", scale_init=nn.initializers.normal()"
KEY_DRAWFREE_FACTS: tuple[KeyDrawFact, ...] = tuple(
    KeyDrawFact(
        "flax.linen",
        "draw-free",
        q,
        "the layer's parameters start from constant initialisers (scale: ones, bias: "
        "zeros): `init` never reads its key",
        example=_norm_program(layer),
        twin=_norm_program(layer.replace(")", _RANDOM_SCALE + ")"), "  # error: JAX201"),
    )
    for q, layer in (
        ("flax.linen.LayerNorm", "LayerNorm(1e-6)"),
        ("flax.linen.RMSNorm", "RMSNorm(1e-6)"),
        ("flax.linen.BatchNorm", "BatchNorm(use_running_average=False)"),
        ("flax.linen.GroupNorm", "GroupNorm(num_groups=2)"),
        ("flax.linen.InstanceNorm", "InstanceNorm(1e-6)"),
    )
)
