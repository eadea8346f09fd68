"""JAX201: an evosax strategy's `init(key, mean, params)` never reads its key (its state starts
from the mean, zeros, ones and identities), so handing it the key and then splitting the same
key is no reuse (analysis/key_draw_facts.py `EVOSAX_KEYLESS_INITS`, a library fact checked by
running evosax 0.3.1: `init` with key(0) and key(1) gives identical states).

Reduced from EelcoHoogendoorn/jax_actuator actuator/optimize.py (v22, CMA_ES) and
kmheckel/spyx src/spyx/experimental/zoo/control.py (v29, Open_ES): JAX201 FP, tuning
material. The near misses: CR_FM_NES, whose `init` draws, and the population-based
`DiffusionEvolution`, whose `init` reads its key.
"""

import jax
from evosax.algorithms import CMA_ES, CR_FM_NES, PSO, DiffusionEvolution, Open_ES


def es_train(seed, x, steps):
    key = jax.random.PRNGKey(seed)
    es = CMA_ES(population_size=16, solution=x)
    params = es.default_params
    state = es.init(key, x, params)
    for _ in range(steps):
        key, k_ask, k_tell = jax.random.split(key, 3)
        population, state = es.ask(k_ask, state, params)
        state, _ = es.tell(k_tell, population, population.sum(-1), state, params)
    return state


def open_es(key, x):
    es = Open_ES(population_size=16, solution=x)
    state = es.init(key, x, es.default_params)
    return state, jax.random.split(key)


def pso(key, population, fitness):
    es = PSO(population_size=population.shape[0], solution=population[0])
    state = es.init(key, population, fitness, es.default_params)
    return state, jax.random.normal(key, population.shape)


def cr_fm_nes(key, x):
    es = CR_FM_NES(population_size=16, solution=x)
    state = es.init(key, x, es.default_params)
    return state, jax.random.split(key)  # error: JAX201


def diffusion(key, population, fitness):
    es = DiffusionEvolution(population_size=population.shape[0], solution=population[0])
    state = es.init(key, population, fitness, es.default_params)
    return state, jax.random.normal(key, population.shape)  # error: JAX201
