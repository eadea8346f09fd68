import jax


def jax_enable_x64():
    jax.config.update("jax_enable_x64", True)
