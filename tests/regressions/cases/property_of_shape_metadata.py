"""A property whose every return is shape metadata (`self.page_indices.shape[0]`, a haliax
`axis_size`, `len(...)`, a static field) gives a Python int on a traced object, as a static
field does: `min()` and `if` on it are fine under jit (levanter `inference/engine.py`,
`page_table.max_seqs` = `self.page_indices.axis_size("seq")`: JAX110 at high confidence, a
false positive of corpus v5; this reduction ran with JAX 0.12: `step` compiles and runs). The
twin: a property that returns data (`self.page_indices.sum()`) is traced and still fires.
"""

import equinox as eqx
import jax


class PageTable(eqx.Module):
    page_indices: jax.Array

    @property
    def max_seqs(self) -> int:
        return self.page_indices.shape[0]

    @property
    def num_cells(self):
        return self.page_indices.shape[0] * self.page_indices.shape[1] + len(self.page_indices)

    @property
    def used(self):
        return self.page_indices.sum()


@jax.jit
def step(page_table, x):
    n = min(page_table.max_seqs, 8)
    if n > 2 and page_table.num_cells > 4:
        x = x + 1
    return x


@jax.jit
def twin(page_table, x):
    if page_table.used > 2:  # error: JAX110
        x = x + 1
    return x
