"""@jax.jit on a method of a plain class (VishwamAI nextgenjax_model.py:538): calling it via self raises TypeError."""

import jax


class Plain:
    @jax.jit
    def build(self):
        return 1


try:
    Plain().build()
    print("no error")
except TypeError as e:
    print("TypeError:", str(e)[:200])
