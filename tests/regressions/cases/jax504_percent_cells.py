"""A script in the percent format (`# %%` starts a cell: VS Code, Spyder, Jupytext) runs cell
by cell, and a cell's last expression is displayed, as in a notebook: written to be looked at,
not a result thrown away (v14 check half, rl_with_jax `trpo/debug.py:314` and `:346`,
`np.abs(a - b).mean()  # 0.00201443`, JAX504 x2; `analysis/cells.py`). The twin: the same
expression followed by another statement of its cell is thrown away (JAX504 fires). The method
is called on a name: a temporary's (`jnp.abs(x - y).mean()`) thrown away is an unused result,
not a lost update of anything (a new user's report, stop 51).
"""

# %%
import jax.numpy as jnp

x = jnp.zeros(4)
y = jnp.ones(4)
gap = jnp.abs(x - y)

# %%
gap.mean()  # 1.0

# %%
gap.mean()  # error: JAX504
jnp.abs(x - y).mean()
z = x + 1

# %%
z.sum()
