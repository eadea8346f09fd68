"""numpyro/contrib/control_flow/scan.py:157 (JAX110): a scan body that runs both eagerly and
under `lax.scan` guards its Python test with `not_jax_tracer(i) and ...`: the second operand
only runs on concrete values."""

from jax import core, lax


def not_jax_tracer(x):
    return not isinstance(x, core.Tracer)


def scan_enum(xs, unroll_steps):
    def body_fn(wrapped_carry, x):
        i, carry = wrapped_carry
        init = True if (not_jax_tracer(i) and i in range(unroll_steps)) else False
        if isinstance(i, core.Tracer):
            pass
        elif i > 3:
            init = False
        return (i + 1, carry + x), init

    return lax.scan(body_fn, (0, 0.0), xs)
