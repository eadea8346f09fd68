"""Writes tuning_review.json: one verdict and reason per worklist row (by row index), as read in context."""

import collections
import json

W = json.load(open("benchmarks/precision_v6/worklist.json"))["rows"]
R = "benchmarks/precision_v6/repros/"
SP = f"split(k, n) and split(k, m) share their first keys ({R}tp_jax201_split_prefix.py)"
V = {}


def s(idx, verdict, reason):
    for i in [idx] if isinstance(idx, int) else idx:
        V[i] = (verdict, reason)


s(
    0,
    "TP",
    "no jax_enable_x64 anywhere in paxml's checkpoints_test.py: `jnp.asarray([0], jnp.int64)` gives int32 with a UserWarning (checked, repros/jax701_int64.py); a test fixture step, harmless, but the claim is exact (convention of v4: JAX701 TP when exact)",
)
s(
    [1, 3],
    "TP",
    "TrainState is a flax struct.PyTreeNode (paxml/train_states.py:50): `ckpt_train_state.replace(opt_states=...)` returns a new state and the statement drops it, so the EMA-filtered opt_states built just above never reach the returned checkpoint state (the non-dropped result would be needed; real bug)",
)
s(
    [2, 4],
    "TP",
    "same as the ckpt_train_state row: `train_state_pspecs.replace(...)` (a TrainState of PartitionSpecs) is dropped, the pspecs are never updated",
)
s(
    5,
    "DEBATABLE",
    "tutorial notebook: cell 10 and cell 12 apply the same layer with the same `noise_key` to show `apply` versus `apply(mutable=True)` on identical outputs; deliberate",
)
s(
    6,
    "DEBATABLE",
    "test: the ghostnorm layer and the reference layer are applied with the same `noise_key` on purpose, to assert identical forward outputs (comment on line 167)",
)
s(
    7,
    "TP",
    f"DP-SGD: `inner_prng_keys = split(prng_key, num_iters)` feeds the per-microbatch loss rngs, then `_add_noise(..., prng_key)` splits the same key again by leaf count (sgf.py:219); {SP}: the noise key of the first leaf equals the rng of inner batch 0",
)
s(
    8,
    "TP",
    "alphamissense never enables x64: `broadcasted_iota(jnp.int64, ...)` is int32 with a UserWarning (repros/jax701_int64.py); harmless for sort indices but exact (same as alphafold3 in v4)",
)
s(
    9,
    "TP",
    "`key1, key2 = split(rng_key)` then `randint(key=rng_key, ...)` for the colours (line 175): the consumed parent key is drawn from again, correlated with the split keys",
)
s(
    10,
    "TP",
    f"`p1 = uniform(rng_key, [n, 2])` and `r = uniform(rng_key, [n])`: the radii are exactly the first n raw uniforms of p1 (checked: uniform(k,(4,2)).ravel()[:4] == uniform(k,(4,)), {R}tp_jax201_split_prefix.py), so the orbit radius is a function of the initial direction",
)
s(
    11,
    "FP",
    f"the region syncs before the clock: `if dual_state.loss <= dual_state.best_loss` converts the jitted output to a bool (blocks) and `dual_state.loss.block_until_ready()` under block_to_time; the output is bound to the ATTRIBUTE target `dual_state.loss`, and a block on an attribute target is not credited (with plain names the same code is silent): {R}fp_jax601_attribute_target.py",
)
s(
    [12, 13],
    "TP",
    "`random.normal(key, [size])`, `random.normal(key, ())`, `random.normal(key, [size])` from one key: the first and third initialisers are identical arrays and the scalar equals their first element",
)
s(
    [14, 15],
    "DEBATABLE",
    "test: `key` draws the random matrix and then seeds the Lanczos start vector; correlated but harmless for a test that compares eigenvectors with scipy",
)
s(
    16,
    "DEBATABLE",
    "test compares `lanczos_alg(..., dynamic_unroll=True)` with `dynamic_unroll=False`: the same key is required for the two to agree (assert on line 79); deliberate",
)
s(
    17,
    "TP",
    "`aff.at[:, :, 1:].add(neighbor_mask[:, :, None])` is dropped: with restrict_neighborhood=True (the only caller passes True, line 219) the neighbourhood mask never reaches `aff`; real bug",
)
s(
    18,
    "FP",
    f"the conditional expression is under `if j.ndim == 0:`; the only call vmaps db_eval_iou over the class axis of (T-2, H, W, C) masks (line 232), so per element j has shape (T-2,) and the branch is dead; checked with JAX: {R}fp_jax110_ndim_guard.py (the (H,W,C) twin does raise)",
)
s(
    [19, 20, 21, 22, 23, 24],
    "FP",
    f"the static `task` (and `task.cond_fn`) is `task_reg[task_ids[task_idx]]`: one of a few fixed Task objects of the registry, revisited every step, so each compiles once and later steps hit the cache; it selects a Python function, so it cannot be traced: {R}fp_jax403_bounded_structural.py (2 traces in 50 steps)",
)
s(
    25,
    "DEBATABLE",
    "test fixture: logits `normal(key, ...)` and labels `uniform(key, ...)` from one key; the test only checks shapes and the equality of train and eval losses; harmless",
)
s(
    26,
    "DEBATABLE",
    "deliberate: train_labels and eval_labels must be identical for the assert on line 166 (`ensemble_size == 1`: train and eval losses equal)",
)
s(
    27,
    "TP",
    "`jax.random.uniform(jax.random.PRNGKey(0), shape)` builds the 'random mask' (comment) in every batch of the evaluation loop: every batch masks the same positions (same shape), so the imputation MCC is measured on one fixed mask pattern",
)
s(
    28,
    "TP",
    "`assert species_tokens.min() >= ...` in the nnx Module's `__call__`: under nnx.jit/jax.jit the `min()` is a tracer and the assert raises TracerBoolConversionError; the repository's notebooks call the model eagerly, but it is the public forward of a library model (the shape assert two lines below, static, is rightly not reported); checked: benchmarks/precision_v6/repros/tp_jax111_nnx_assert.py",
)
s(
    29,
    "TP",
    "`self._state._replace(timesteps=self._total_steps)`: TrainingState is a NamedTuple (pax/utils.py:121), `_replace` returns a new tuple, the result is dropped: the agent's timesteps never advance in its state",
)
s(
    30,
    "TP",
    "`new_rng, _ = split(rng)`, `uniform(new_rng)`, `return action, new_rng`: the returned key was consumed by uniform and is drawn from again by the caller",
)
s(
    31,
    "TP",
    "`new_key, _ = split(state.random_key)`, `randint(new_key, ...)`, then `state._replace(random_key=new_key)`: the stored key was consumed; the next call splits it, correlated with this draw",
)
s(
    [32, 33, 35],
    "TP",
    "`choice(key, AGENT_SPAWNS)`, `randint(key, ...)` (and `permutation(subkey, COIN_SPAWNS)`) from one key in _soft_reset_state/_reset_state: agent positions, directions and coin layout are correlated draws of one key",
)
s(
    34,
    "DEBATABLE",
    f"true reuse of `subkey`, but `randint(subkey, shape=(), minval=0, maxval=1)` is 0 for every key ({R}tp_jax201_split_prefix.py): the reuse cannot change the result",
)
s(
    36,
    "TP",
    "`[uniform(key, (num_actions,)) for _ in range(num_actors)]`: every actor gets the identical initial action vector",
)
s(
    list(range(37, 49)) + [54, 57, 61],
    "TP",
    f"`a1_rng = split(rng, popsize)` then, in the generation loop, `rng, rng_run, rng_evo, rng_key = split(rng, 4)` from the same rng: {SP}, so the new carried rng equals a1_rng[0], rng_run equals a1_rng[1], ... (agent-1 init keys reused as the evolution keys); for the `_rng_run` rows: `split(_rng_run, num_envs)` for the env reset and then `split(_rng_run, ...)`/`uniform(_rng_run, ...)` again for the opponent/payoff keys, same prefix sharing",
)
s(
    [49, 50, 51, 52, 53, 55, 56, 58, 59, 60, 62, 63, 64, 65, 66, 67, 68, 70],
    "TP",
    f"`split(_rng_run/rng, num_envs)` for the env reset, then the same key split again (opponent init `split(key, num_opps)`, `_rng_run, x = split(_rng_run)`, `target_rngs`) or drawn from (`permutation`, `uniform`): {SP}, so opponent keys equal env-reset keys",
)
s(
    69,
    "DEBATABLE",
    "`rng, _ = split(self.random_key)` at the top of each blind-dimension setting: every setting s is evaluated with the same keys, plausibly deliberate (common random numbers across the compared settings); true reuse",
)
s(
    [71, 72],
    "TP",
    "benchmark loop: `key, _ = split(rng, 2)` rebinds `key`, not `rng`, and `uniform(rng, ...)`/`env.step(rng, ...)` use the never-advanced `rng`: every iteration draws the same actions (typo-like bug)",
)
s(
    73,
    "TP",
    "rice_performance_benchmark times a loop of jitted `env.step` calls and reads time.time() with no block on the last outputs; the measured total excludes the tail of the queued computation",
)
s(
    74,
    "FP",
    f"`chosen_op_idx` runs over range(len(self.other_agents)) each update, and inner_loss uses it in Python control flow (`if idx == chosen_op_idx`, lola.py:197) and to index lists: a few values revisited on every call, each compiled once then cached; cannot be traced: {R}fp_jax403_bounded_structural.py",
)
s(
    75,
    "TP",
    "`jax.vmap(_greedy_step, in_axes=(0, None), out_axes=(0, None))`: the key is broadcast, so every batch element's tie-break `p = uniform(new_rng)` is the same number",
)
s(
    [76, 77],
    "TP",
    "in `_step`, `key` is drawn by `choice(key, [0, 1])` (line 639), then passed to `_soft_reset_state(key)` (choice/randint on it) and to `_reset_state(key)` (split of it): correlated draws from one key",
)
s(
    [78, 79],
    "TP",
    "`p=jnp.array([0.1, 0.1, 0.5, 0.1, 0.4])` is rebuilt from a Python list in every step of the `__main__` demo loop (line 1363): a host-to-device copy that could be hoisted (negligible, but exact; v5 convention)",
)
s(
    80,
    "DEBATABLE",
    "the static `roles` tuple changes only with self_play_anneal (np.random.binomial(num_players, p)), so it recompiles for each new role count, at most num_players times; the roles decide the program structure (deliberate); true but bounded",
)
s(
    81,
    "FP",
    f"`param_reshaper` is evosax's ParameterReshaper (pax/experiment.py:318 builds it); its `reshape(x)` maps a flat vector to the params pytree with jnp ops and is jittable; a method named `reshape` on an object of unknown class was read as ndarray.reshape(shape): {R}fp_jax120_object_reshape.py",
)
missing = [i for i in range(len(W)) if i not in V]
assert not missing, missing
out = []
for i, r in enumerate(W):
    v, why = V[i]
    out.append(
        dict(
            repo=r["repo"].replace("+", "/", 1),
            path=r["path"],
            line=r["line"],
            cell=r["cell"],
            code=r["code"],
            confidence=r["conf"],
            selection=r["selection"],
            verdict=v,
            reason=why,
        )
    )
json.dump(out, open("benchmarks/precision_v6/tuning_review.json", "w"), indent=1)

print(collections.Counter((o["code"], o["selection"], o["verdict"]) for o in out))
