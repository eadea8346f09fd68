"""The driver of the case: it builds the wave function and sets it up at once; it changes
the sampler's width after drawing from it."""

import jax

from nqs.wavefunction import Sampler, Wavefunction


def main(seed):
    key = jax.random.PRNGKey(seed)
    k1, k2, k3 = jax.random.split(key, 3)
    wavefunction = Wavefunction(3, 2)
    params = wavefunction.build(k1)
    sampler = Sampler(0.5)
    first = sampler.draw(k2)
    sampler.set_width(0.1)
    return wavefunction.logpsi(params, first), sampler.draw(k3)
