"""`etan` is static in every traced call that reaches `inner`: the jitted entry marks it with
`static_argnums=tuple(range(1, 3))` (a `range` of literals: `syntax.literal_ints`), and
`jax.jacfwd` inside the jit differentiates only `u`. An entry whose statics are not known
(`STATIC` imported: `static_argnums=STATIC`) makes the function it reaches through the
`jacfwd` silent too (`TracedFunctions`: a grad-applied function a jit calls takes the jit's
`unknown_static`). The twin entry, jitted with `etan` traced, is reported.

From the v40 check set (read once, tuning material since): tmd-lab/tmdsimpy
`tmdsimpy/jax/nlforces/roughcontact/_asperity_functions.py:109` (JAX110, read FP):
`if Etan / Emod < eps:` reached from `_static_force_grad`, jitted with
`static_argnums=tuple(range(12, 21))`, through `jax.jacfwd(_static_force, has_aux=True)`.
"""


def inner(u, etan, emod):
    if etan / emod < 1e-9:
        return u * 0.0
    return u * etan


def inner_twin(u, etan, emod):
    if etan / emod < 1e-9:  # error: JAX110
        return u * 0.0
    return u * etan
