"""e3nn/e3nn-jax e3nn_jax/_src/irreps_array.py:1238-1242 (reduced): an attrs class whose
`irreps` field is declared in the body like the array, and registered with a flatten lambda
that returns it as aux data. The flatten function is what JAX uses, so `irreps` is static
(analysis/pytrees.py reads flatten lambdas now, and lets them override the class body)."""

import attr
import jax


@attr.s(frozen=True)
class IrrepsArray:
    irreps: tuple = attr.ib()
    array: jax.Array = attr.ib()

    @property
    def shape(self):
        return self.array.shape


jax.tree_util.register_pytree_node(
    IrrepsArray,
    lambda x: ((x.array,), x.irreps),
    lambda irreps, data: IrrepsArray(irreps, data[0]),
)
