"""Issue 24: keys consumed by library constructors and initialisers, keys in `rngs=` dicts,
`self.key` split and dropped, constant seeds through a config dict or `nnx.Rngs`, vmap over a
module instance: each bad program (marked) next to its near-miss twin (silent). Written from
the recall cases in benchmarks/recall/cases (equinox PRs 316/529, equinox issue 788, flax PR
2593, numpyro PR 479, AutoEIS issue 46, coreax issue 375, probly PR 271)."""

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax import nnx

cfg = {"seed": 42, "epochs": 3}


class Dense(nn.Module):
    @nn.compact
    def __call__(self, x, train=False):
        return nn.Dropout(0.5, deterministic=not train)(nn.Dense(4)(x))


def two_linears_one_key():
    key = jax.random.PRNGKey(0)
    enc = eqx.nn.Linear(4, 4, key=key)
    dec = eqx.nn.Linear(4, 4, key=key)  # error: JAX201
    return enc, dec


def two_linears_split():
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    return eqx.nn.Linear(4, 4, key=k1), eqx.nn.Linear(4, 4, key=k2)


def init_twice(actor_model, critic_model, x):
    key = jax.random.PRNGKey(0)
    actor = actor_model.init(key, x)
    critic = critic_model.init(key, x)  # error: JAX201
    return actor, critic


def online_and_target(qf, x):
    qf_key = jax.random.PRNGKey(0)
    # the target network starts equal to the online one, on purpose (sbx's RLTrainState)
    return dict(params=qf.init({"params": qf_key}, x), target_params=qf.init({"params": qf_key}, x))


def optimizer_init_twice(params):
    tx = optax.adam(1e-3)
    return tx.init(params), tx.init(params)  # not a key: optax's init takes the parameters


def layers_one_key(sizes):
    key = jax.random.PRNGKey(0)
    return [eqx.nn.Linear(m, n, key=key) for m, n in zip(sizes, sizes[1:])]  # error: JAX201


def layers_split(sizes):
    keys = jax.random.split(jax.random.PRNGKey(0), len(sizes) - 1)
    return [eqx.nn.Linear(m, n, key=k) for m, n, k in zip(sizes, sizes[1:], keys)]


def dropout_same_key(params, batches):
    dropout_key = jax.random.PRNGKey(1)
    for x in batches:
        Dense().apply(params, x, train=True, rngs={"dropout": dropout_key})  # error: JAX201


def dropout_split(params, batches):
    dropout_key = jax.random.PRNGKey(1)
    for x in batches:
        dropout_key, step_key = jax.random.split(dropout_key)
        Dense().apply(params, x, train=True, rngs={"dropout": step_key})


def evaluate_same_key(params, batches):
    key = jax.random.PRNGKey(1)
    for x in batches:
        Dense().apply(params, x, train=False, rngs={"dropout": key})  # no dropout drawn


class Tower(eqx.Module):
    w: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (4, 4))


def towers_one_key():
    key = jax.random.PRNGKey(2)
    return Tower(key), Tower(key)  # error: JAX201


def towers_split():
    k1, k2 = jax.random.split(jax.random.PRNGKey(2))
    return Tower(k1), Tower(k2)


class Sampler:
    def __init__(self, seed):
        self.rng_key = jax.random.PRNGKey(seed)
        self.eval_key = jax.random.PRNGKey(seed + 1)

    def run(self, n):
        rng_key, sub = jax.random.split(self.rng_key)
        return jax.random.normal(sub, (n,))

    def evaluate(self, n):
        return jax.random.normal(self.eval_key, (n,))  # a fixed key on purpose: not split


class AdvancingSampler(Sampler):
    def run(self, n):
        self.rng_key, sub = jax.random.split(self.rng_key)
        return jax.random.normal(sub, (n,))


def sample_twice():
    sampler = Sampler(0)
    return sampler.run(5), sampler.run(5)  # error: JAX201


def sample_advancing():
    sampler = AdvancingSampler(0)
    return sampler.run(5), sampler.run(5)


def shuffled(cfg, data):
    key = jax.random.PRNGKey(cfg["seed"])  # error: JAX208
    return data[jax.random.permutation(key, data.shape[0])]


def shuffled_with_seed(seed, data):
    key = jax.random.PRNGKey(seed)
    return data[jax.random.permutation(key, data.shape[0])]


def epochs(data):
    orders = [shuffled(cfg, data) for epoch in range(cfg["epochs"])]
    seeded = [shuffled_with_seed(epoch, data) for epoch in range(cfg["epochs"])]
    return orders, seeded


def ensemble_in_loop():
    members = []
    for _ in range(3):
        members.append(nnx.Linear(4, 2, rngs=nnx.Rngs(0)))  # error: JAX202
    return members


def ensemble_one_stream():
    rngs = nnx.Rngs(0)
    return [nnx.Linear(4, 2, rngs=rngs) for _ in range(3)]


def ensemble_per_member_seed():
    return [nnx.Linear(4, 2, rngs=nnx.Rngs(i)) for i in range(3)]


def noisy_forward(x):
    drop = nnx.Dropout(0.5, rngs=nnx.Rngs(dropout=0))  # error: JAX208
    return drop(x)


def noisy_forward_with(drop, x):
    return drop(x)


def forward_steps(x):
    drop = nnx.Dropout(0.5, rngs=nnx.Rngs(dropout=0))
    return [noisy_forward(x) for _ in range(4)], [noisy_forward_with(drop, x) for _ in range(4)]


class Block(eqx.Module):
    dropout: eqx.nn.Dropout

    def __init__(self):
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, key):
        return self.dropout(x, key=key)


def batch_one_key(xs):
    block = Block()
    key = jax.random.PRNGKey(3)
    return jax.vmap(block, in_axes=(0, None))(xs, key)  # error: JAX207


def batch_keys(xs):
    block = Block()
    keys = jax.random.split(jax.random.PRNGKey(3), xs.shape[0])
    return jax.vmap(block, in_axes=(0, 0))(xs, keys)


def perturb(x):
    key = jax.random.PRNGKey(0)  # error: JAX208
    return x + 0.1 * jax.random.normal(key, x.shape)


def perturb_with(key, x):
    return x + 0.1 * jax.random.normal(key, x.shape)


@jax.jit
def loop_body(x):
    return perturb(x)


@jax.jit
def loop_body_with(key, x):
    return perturb_with(key, x)


def steps(x):
    key = jax.random.PRNGKey(0)
    noisy = [loop_body(x) for _ in range(3)]
    fresh = []
    for _ in range(3):
        key, sub = jax.random.split(key)
        fresh.append(loop_body_with(sub, x))
    return noisy, fresh, jnp.stack(fresh)


def train_step(model, batch):
    drop = nnx.Dropout(0.5, rngs=nnx.Rngs(dropout=0))  # error: JAX208
    return jnp.mean(drop(model(batch)))


def train_step_with(model, batch, rngs):
    drop = nnx.Dropout(0.5, rngs=rngs)
    return jnp.mean(drop(model(batch)))


def make_inputs(n):
    return jax.random.normal(jax.random.PRNGKey(0), (n, 3))  # one fixed input per size


def train(model, loader, sizes):
    rngs = nnx.Rngs(dropout=0)
    losses = [train_step(model, batch) for batch in loader]
    losses += [train_step_with(model, batch, rngs) for batch in loader]
    inputs = [make_inputs(n) for n in sizes]
    return losses, inputs


class Ensemble:
    def __init__(self, key):
        self.key = key
        self.eval_key = key

    def sample(self):
        key, sub = jax.random.split(self.key)  # error: JAX201
        return jax.random.normal(sub)

    def sample_eval(self):
        _, sub = jax.random.split(self.eval_key)  # the same draw on purpose: nothing dropped
        return jax.random.normal(sub)

    def sample_and_return(self):
        key, sub = jax.random.split(self.key)
        return jax.random.normal(sub), key  # the caller gets the new key


def draw_from(ensemble):
    return [ensemble.sample() for _ in range(3)]
