"""Verdicts of corpus v5, by worklist row index; `python tools/verdicts.py` writes review.json."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
V = {}


def put(idxs, verdict, reason):
    for i in idxs if isinstance(idxs, (list, tuple, range)) else [idxs]:
        assert i not in V, i
        V[i] = (verdict, reason)


JAXSIM_STATIC = (
    "FP: static pytree metadata read as traced: `model.dofs()`/`number_of_links()`/"
    "`number_of_joints()` read jax_dataclasses `Static[...]` fields (JointModel.joint_dofs, "
    "KinDynParameters.link_names, joint_names), which are pytree aux data and concrete Python "
    "ints under jit/vmap (repros/jaxsim_static_fields.py)"
)
put(list(range(44, 72)), "FP", JAXSIM_STATIC)
put(38, "FP", JAXSIM_STATIC + "; `if model.number_of_links() > 1` is a Python bool")
put(39, "FP", JAXSIM_STATIC + "; `has_joints = model.number_of_joints() > 0` is a Python bool")

QDAX_SCAN = (
    "TP: the loop times an eager `jax.lax.scan(...scan_update...)` (outside jit) with "
    "time.time() and never blocks: the eager scan returns before its compute finishes "
    "(repros/eager_scan_async.py: returned after 0.001 s, ready after 3.3 s), so `timelapse` "
    "logged as 'time' is trace+dispatch"
)
put([30, 31, 32, 34, 35, 36, 37], "TP", QDAX_SCAN)
put(
    33,
    "TP",
    "TP: the timed loop body ends with `tell_fn = jax.jit(map_elites.tell)` dispatched "
    "asynchronously and reads time.time() without blocking: the tell update's compute is not in "
    "`timelapse` (it leaks into the next iteration's measurement)",
)
put(
    [40, 41],
    "TP",
    "TP: `%timeit step_single(model, data_single)` / `%timeit step_parallel(...)` "
    "on jitted functions without block_until_ready: each loop of %timeit measures dispatch "
    "(warm-up done before, so it is not compile), the printed per-step time is too low",
)
put(
    [42, 43],
    "TP",
    "TP: `s_des=jnp.array([0.0, 0.0])` / `s_dot_des=...` built from a Python list "
    "in every step of the simulation loop `for _ in T` (1000 steps), constant: a host->device "
    "transfer each step that could be hoisted (notebook, low impact)",
)
KIN_SFL = (
    "TP: train_and_eval_step is plain Python (called from the eager loop on line 1022, "
    "not jitted): the region between time_curr and the 'Timing::' print only dispatches "
    "pmap/vmap/scan work and never blocks, so the logged timing/* values are dispatch time"
)
put(21, "TP", KIN_SFL + " ('Getting Buffer': pmapped_get_set + eager lax.cond)")
put(22, "TP", KIN_SFL + " ('Logging Buffer': eager scans in log_buffer_learnability)")
put(23, "TP", KIN_SFL + " ('Training': pmapped_train_step then unreplicate = x[0] indexing, async)")
put(24, "TP", KIN_SFL + " ('Log Buffer': log_buffer_learnability eager scan)")
put(
    25,
    "TP",
    KIN_SFL + " ('Eval': vmapped eval runs; the jax.debug.print at 880 comes before "
    "the top-learnable eval on 891, which stays unsynchronised)",
)
put(
    13,
    "TP",
    "TP: `pmapped_train_step = jax.pmap(single_step)` is created anew (single_step a "
    "new closure) on every call of train_and_eval_step, so every 'Timing:: Training' includes "
    "tracing and compiling it; the timing never excludes compilation",
)
put(
    15,
    "TP",
    "TP: `rng_eval` feeds `jax.random.split(rng_eval, n)` for the eval-level rollouts "
    "(819) and again for the DR-level rollouts (849, and top-learnable at 893): the attempt keys "
    "are identical across the three evaluations (correlated eval noise, low impact)",
)
put(
    12,
    "TP",
    "TP: plr.py: `rng_eval` split into the attempt keys for `eval` (888) and again "
    "identically for `eval_on_dr_levels` (910): same keys for both evaluations",
)
put(
    14,
    "DEBATABLE",
    "DEBATABLE: `_rng3` is consumed by log_buffer_learnability before training "
    "(763) and after (810) on purpose: the comments say 'same seed as the previous one' to "
    "measure learnability before/after with the same randomness",
)
put(
    17,
    "TP",
    "TP: editor.py: when agent_taking_actions, `_rng` is consumed by `pi.sample(seed=_rng)` "
    "(455) and then split at 457 to make the step/reset keys: the sample and the step keys "
    "are correlated",
)
put(
    19,
    "FP",
    "FP: mutually exclusive uses: `jax.lax.select(n_vertices <= 3, "
    "random_position_on_triangle(rng, ...), random_position_on_rectangle(rng, ...))` keeps one "
    "of the two draws per element, so the same key is never used for two results that are both "
    "kept",
)
put(
    18,
    "FP",
    "FP: `global myrng; myrng, _rng = jax.random.split(myrng)`: the module-level key "
    "is rebound (through the `global` statement) on every use, so successive calls draw new "
    "numbers; the rebinding through `global` is not seen",
)
put(
    20,
    "TP",
    "TP: saving.py:410 `env_state_target.replace(acc_rr_manifolds=...)` for manifold "
    "i+1 is not assigned (the one above for i is): the loaded manifold i+1 is silently dropped "
    "(a real bug)",
)
put(
    26,
    "FP",
    "FP: not every step: `_reset_triangles()` runs only in the Ctrl+O / Ctrl+N "
    "keyboard-event branches of the event loop (lines 1217/1221), a rare UI reset, not per "
    "step; the call-in-loop is conditional on a user action",
)

put(
    0,
    "TP",
    "TP: loss_landscape cell 13: `ResConvNet(1, 32, key=key)` and `SansConvNet(1, 32, key=key)` "
    "initialise both networks from the same key (correlated inits of the two compared models; "
    "no comment says it is deliberate; notebook, low impact)",
)
put(
    1,
    "FP",
    "FP: rebinding to an equal value: every rebinding of `optim` (cells 11, 13, 15) is "
    "`optax.adam(1e-4)`, so the optimizer baked into train_step is the same transformation; "
    "where the net changes shape ([2], [4], [2M]) train_step retraces and reads the new one anyway",
)
put(
    3,
    "TP",
    "TP: unet cell 17: `jr.split(subkey, len(images))` in the inner `for images, masks in "
    "train_ds` loop with `subkey` split once per epoch: every batch of an epoch gets the same "
    "augmentation keys",
)
put(
    [5, 6],
    "TP",
    "TP: `jr.split(jr.key(0), 4).astype(jnp.float32)` on typed keys raises "
    "NotImplementedError on JAX 0.12 (repros/typed_key_astype.py): the notebook cell fails",
)
put(
    7,
    "TP",
    "TP: reshape.py random_crop_nd: `jr.randint(key, (), 0, input.shape[i] - s)` with "
    "the same key for every axis: the crop starts along the axes are drawn from the same bits "
    "(equal on a square input, so crops always lie on the diagonal): a real bug",
)
SERKET_CH = (
    "DEBATABLE: true (the key is broadcast, every mapped element draws the same number) "
    "but intended: the vmap maps the CHANNELS of one CHW image (in_axes=(None, 0)), and a "
    "geometric augmentation must rotate/shift all channels of an image identically; the "
    "suggested per-element keys would be the bug"
)
put(8, "DEBATABLE", SERKET_CH + " (Rotate2D)")
put(9, "DEBATABLE", SERKET_CH + " (RandomHorizontalTranslate2D)")
put(10, "DEBATABLE", SERKET_CH + " (RandomVerticalTranslate2D)")
put(
    11,
    "FP",
    "FP: vmap in_axes=None arguments stay Python values: RandomCutoutND calls "
    "`jax.vmap(random_cutout_nd, in_axes=(None, 0, None, None, None))` with `shape` a tuple of "
    "ints; unmapped arguments reach the function as the Python objects "
    "(repros/vmap_unmapped_static.py), so `patches.reshape(-1, *shape)` is concrete",
)

put(
    27,
    "FP",
    "FP: the first draw carries no randomness: cmame cell 17 "
    "`jax.random.uniform(key, ...) * 0.` (the comment: 'we multiply by zero' for an empty "
    "initial population), so reusing `key` for the split in cell 19 correlates nothing",
)
put(
    28,
    "TP",
    "TP: diayn: `key` is consumed by `diayn.init(key, ...)` in cell 14 and split again "
    "in cell 33 for the rollout (reset key correlated with the init key; notebook, low impact)",
)
put(
    72,
    "TP",
    "TP: dendrite explicit_fd: `chi = uniform(PRNGKey(0), p.shape) - 0.5` inside "
    "phase_field, called every time step: the 'noise' term is the same field every step "
    "(frozen noise, a modelling bug)",
)
put(
    73,
    "TP",
    "TP: dendrite explicit_fem: `chi = uniform(PRNGKey(0), ...)` inside the time loop: "
    "the same noise every step",
)
put(
    76,
    "DEBATABLE",
    "DEBATABLE: phase_field_fracture get_maps: `PRNGKey(0)` makes a 1e-8 "
    "diagonal perturbation that breaks eigenvalue degeneracy for eigh; it must be the same in "
    "every call (stress_fn and psi_plus_fn both call get_maps), so the fixed key is deliberate",
)
put(
    75,
    "DEBATABLE",
    "DEBATABLE: true (the first `update` call compiles inside the timed region) but "
    "the timing is the whole style-transfer run ('Style transfer finished. Took ...'), an "
    "end-to-end wall time where compilation belongs; outdated script named main_not_working",
)
put(
    77,
    "TP",
    "TP: jit_global.py test_fn_b (jitted) runs `b.set_params(E)` -> `self.E = E` only "
    "at trace time, leaving the tracer on `b`; the second call with E=20 hits the cache and "
    "b.E is not updated (an experiment file probing exactly this, but the claim holds)",
)
put(
    78,
    "TP",
    "TP: volume_sensitivity target_value builds `jax.jit(jax.vmap(jax.vmap(det_fn)))` "
    "with a new nested det_fn on every call, once per step of simulation() (and again under "
    "jax.grad(simulation)): it retraces and recompiles each step (num_steps=2, low impact)",
)
put(
    79,
    "TP",
    "TP: parallel/example.py: element_stiffness builds `ref_grads = jnp.array([[...]])` "
    "from a constant list on every call, once per cell in `for cell in range(c_start, c_end)` "
    "(eager): a host->device conversion per cell that could be a module constant",
)
put(
    80,
    "FP",
    "FP: the traced path never reaches it: save_sol is called only under "
    "`if save_results:`; the eager call passes save_results=True, `jax.grad(simulation)(1.)` "
    "uses the default False, so onp.array never sees a tracer (flag/default argument not "
    "followed)",
)
put(
    81,
    "TP",
    "TP: test_paths: `key` is consumed by random_paths (142) and then split for the "
    "float mask (147): mask bits correlated with the paths (test code, harmless)",
)
put(
    83,
    "TP",
    "TP: type_checking cell 9 `jax.random.normal(key, (2, 10, 4))` reuses the key of "
    "cell 5 (the cell is meant to raise a shape error, so no impact)",
)
put(
    84,
    "FP",
    "FP: synced inside the region: the %%time cell ends with "
    "`paths[masks[..., order], :order, :]` (eager boolean-mask indexing needs the mask's "
    "values on the host, so it waits for the scan) and dplt.draw_paths(full_paths) (plotting "
    "converts to NumPy): the measured time includes the compute "
    "(repros/bool_mask_index_syncs.py: mask indexing waits for the scan)",
)
MLC_EVAL = (
    "FP: the key is never drawn from: the eval-mode model_fn {} , so reusing the same "
    "eval key for every batch yields no random numbers at all"
)
put(
    85,
    "FP",
    MLC_EVAL.format("of cifar (`del rng` in model_fn) receives `prng.split(model_rng, n)`"),
)
put(
    86,
    "FP",
    MLC_EVAL.format(
        "of fastmri passes it as rngs={'dropout': rng} with train=False (dropout off in EVAL mode)"
    ),
)
put(
    87,
    "FP",
    MLC_EVAL.format("of librispeech conformer takes the train=False branch, which passes no rngs"),
)
put(
    88,
    "FP",
    MLC_EVAL.format("of mnist (`del rng` in model_fn) receives `prng.split(model_rng, n)`"),
)
put(
    89,
    "TP",
    "TP: distributed_shampoo `_MAT_INV_PTH_ROOT_DTYPE = jnp.float64` and nothing in the "
    "repository enables jax_enable_x64 (the comment says it 'will default to float32'): the "
    "matrix root runs in float32",
)
put(
    90,
    "TP",
    "TP: s4.ipynb cell 47 (test_cnn_is_rnn): `random_SSM(rng, N)` then "
    "`jax.random.uniform(rng, (L,))`: the input u is drawn from the key the SSM used",
)
S4_DEAD = (
    "FP: dead use: the second use is the bare statement `jax.random.split(rng, 3)` whose "
    "result is discarded, so it produces no numbers that could correlate"
)
put(91, "FP", S4_DEAD + " (s4.ipynb cell 47 line 4)")
put(94, "FP", S4_DEAD + " (s4/s4.py:396)")
put(
    92,
    "TP",
    "TP: memory_bug.py: `rng` initialises the model (68) and then draws "
    "`jax.random.normal(rng, in_shape)` every step of the loop: identical inputs every step "
    "and correlated with the init (a memory repro script, low impact)",
)
put(
    95,
    "TP",
    "TP: train.py: `train_epoch(state, train_rng, ...)` every epoch with the same "
    "train_rng, never rebound: every epoch replays the same dropout key sequence (real bug)",
)
put(
    [96, 97, 98],
    "TP",
    "TP: tests/test.py: `B = uniform(rng, (N, 1))`, `C = uniform(rng, (1, N))`, "
    "`u = uniform(rng, (L,))` from one key: B and C hold the same values (test code, harmless)",
)
S4_CAT = (
    "TP: sample(): the vmapped `update` closes over `r` (one key per step) and "
    "`jax.random.categorical(r, out[0])` runs for every mapped element: all sequences of the "
    "batch get the same Gumbel noise each step (correlated samples)"
)
put(99, "TP", S4_CAT + " (s4.ipynb)")
put(100, "TP", S4_CAT + " (s4/s4.py)")
put(
    101,
    "FP",
    "FP: the list length is fixed: `for batch in batched(example_iterator, Batch.size)` "
    "yields lists of Batch.size items and the short last one is padded with `batch.extend` to "
    "Batch.size, so stack_tree always gets Batch.size inputs; a fresh list each step, not one "
    "that grows",
)
put(
    102,
    "FP",
    "FP: shape read as traced: `page_table.max_seqs` is "
    "`self.page_indices.axis_size('seq')`, a haliax NamedArray axis size (a shape, concrete "
    "under while_loop), and max_tokens_per_round is a Python int: min() of two ints",
)
put(
    103,
    "FP",
    "FP: branch never taken on a tracer: in jitted `_concatenate`, "
    "`np.concatenate(x)` sits under `if isinstance(x[0], np.ndarray)`, which is False for the "
    "tracers jit passes in; the jnp.concatenate path runs",
)
put(
    104,
    "TP",
    "TP: each 'Reassemble took' wall time per output time includes tracing and "
    "compiling `jax.jit(wrapper)` (a new nested function per quantity, see JAX401 on the same "
    "line): the number reports compilation, not the reassembly",
)
put(
    105,
    "TP",
    "TP: `jax.jit(wrapper)(buffer_list)` with `wrapper` a nested def created anew for "
    "every quantity of every time step (it reads only the constant split_factors): retraced "
    "and recompiled every time, where one jitted function outside the loops would compile once",
)


if __name__ == "__main__":
    w = json.load(open(os.path.join(HERE, "..", "worklist.json")))["rows"]
    out = []
    for i, r in enumerate(w):
        if i not in V:
            continue
        v, why = V[i]
        out.append(
            dict(
                repo=r["repo"],
                path=r["path"],
                line=r["line"],
                cell=r["cell"],
                code=r["code"],
                confidence=r["conf"],
                selection=r["selection"],
                verdict=v,
                reason=why,
                reviewed="full",
                in_sample=r["in_sample"],
                row=i,
            )
        )
    json.dump(out, open(os.path.join(HERE, "..", "review.json"), "w"), indent=1)
    todo = [i for i, r in enumerate(w) if r["in_sample"] and i not in V]
    print(len(out), "reviewed;", len(todo), "to go:", todo)
