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
put(33, "TP", "TP: the timed loop body ends with `tell_fn = jax.jit(map_elites.tell)` dispatched "
    "asynchronously and reads time.time() without blocking: the tell update's compute is not in "
    "`timelapse` (it leaks into the next iteration's measurement)")
put([40, 41], "TP", "TP: `%timeit step_single(model, data_single)` / `%timeit step_parallel(...)` "
    "on jitted functions without block_until_ready: each loop of %timeit measures dispatch "
    "(warm-up done before, so it is not compile), the printed per-step time is too low")
put([42, 43], "TP", "TP: `s_des=jnp.array([0.0, 0.0])` / `s_dot_des=...` built from a Python list "
    "in every step of the simulation loop `for _ in T` (1000 steps), constant: a host->device "
    "transfer each step that could be hoisted (notebook, low impact)")
KIN_SFL = ("TP: train_and_eval_step is plain Python (called from the eager loop on line 1022, "
    "not jitted): the region between time_curr and the 'Timing::' print only dispatches "
    "pmap/vmap/scan work and never blocks, so the logged timing/* values are dispatch time")
put(21, "TP", KIN_SFL + " ('Getting Buffer': pmapped_get_set + eager lax.cond)")
put(22, "TP", KIN_SFL + " ('Logging Buffer': eager scans in log_buffer_learnability)")
put(23, "TP", KIN_SFL + " ('Training': pmapped_train_step then unreplicate = x[0] indexing, async)")
put(24, "TP", KIN_SFL + " ('Log Buffer': log_buffer_learnability eager scan)")
put(25, "TP", KIN_SFL + " ('Eval': vmapped eval runs; the jax.debug.print at 880 comes before "
    "the top-learnable eval on 891, which stays unsynchronised)")
put(13, "TP", "TP: `pmapped_train_step = jax.pmap(single_step)` is created anew (single_step a "
    "new closure) on every call of train_and_eval_step, so every 'Timing:: Training' includes "
    "tracing and compiling it; the timing never excludes compilation")
put(15, "TP", "TP: `rng_eval` feeds `jax.random.split(rng_eval, n)` for the eval-level rollouts "
    "(819) and again for the DR-level rollouts (849, and top-learnable at 893): the attempt keys "
    "are identical across the three evaluations (correlated eval noise, low impact)")
put(12, "TP", "TP: plr.py: `rng_eval` split into the attempt keys for `eval` (888) and again "
    "identically for `eval_on_dr_levels` (910): same keys for both evaluations")
put(14, "DEBATABLE", "DEBATABLE: `_rng3` is consumed by log_buffer_learnability before training "
    "(763) and after (810) on purpose: the comments say 'same seed as the previous one' to "
    "measure learnability before/after with the same randomness")
put(17, "TP", "TP: editor.py: when agent_taking_actions, `_rng` is consumed by `pi.sample(seed=_rng)` "
    "(455) and then split at 457 to make the step/reset keys: the sample and the step keys "
    "are correlated")
put(19, "FP", "FP: mutually exclusive uses: `jax.lax.select(n_vertices <= 3, "
    "random_position_on_triangle(rng, ...), random_position_on_rectangle(rng, ...))` keeps one "
    "of the two draws per element, so the same key is never used for two results that are both "
    "kept")
put(18, "FP", "FP: `global myrng; myrng, _rng = jax.random.split(myrng)`: the module-level key "
    "is rebound (through the `global` statement) on every use, so successive calls draw new "
    "numbers; the rebinding through `global` is not seen")
put(20, "TP", "TP: saving.py:410 `env_state_target.replace(acc_rr_manifolds=...)` for manifold "
    "i+1 is not assigned (the one above for i is): the loaded manifold i+1 is silently dropped "
    "(a real bug)")
put(26, "FP", "FP: not every step: `_reset_triangles()` runs only in the Ctrl+O / Ctrl+N "
    "keyboard-event branches of the event loop (lines 1217/1221), a rare UI reset, not per "
    "step; the call-in-loop is conditional on a user action")

put(0, "TP", "TP: loss_landscape cell 13: `ResConvNet(1, 32, key=key)` and `SansConvNet(1, 32, key=key)` "
    "initialise both networks from the same key (correlated inits of the two compared models; "
    "no comment says it is deliberate; notebook, low impact)")
put(1, "FP", "FP: rebinding to an equal value: every rebinding of `optim` (cells 11, 13, 15) is "
    "`optax.adam(1e-4)`, so the optimizer baked into train_step is the same transformation; "
    "where the net changes shape ([2], [4], [2M]) train_step retraces and reads the new one anyway")
put(3, "TP", "TP: unet cell 17: `jr.split(subkey, len(images))` in the inner `for images, masks in "
    "train_ds` loop with `subkey` split once per epoch: every batch of an epoch gets the same "
    "augmentation keys")
put([5, 6], "TP", "TP: `jr.split(jr.key(0), 4).astype(jnp.float32)` on typed keys raises "
    "NotImplementedError on JAX 0.12 (repros/typed_key_astype.py): the notebook cell fails")
put(7, "TP", "TP: reshape.py random_crop_nd: `jr.randint(key, (), 0, input.shape[i] - s)` with "
    "the same key for every axis: the crop starts along the axes are drawn from the same bits "
    "(equal on a square input, so crops always lie on the diagonal): a real bug")
SERKET_CH = ("DEBATABLE: true (the key is broadcast, every mapped element draws the same number) "
    "but intended: the vmap maps the CHANNELS of one CHW image (in_axes=(None, 0)), and a "
    "geometric augmentation must rotate/shift all channels of an image identically; the "
    "suggested per-element keys would be the bug")
put(8, "DEBATABLE", SERKET_CH + " (Rotate2D)")
put(9, "DEBATABLE", SERKET_CH + " (RandomHorizontalTranslate2D)")
put(10, "DEBATABLE", SERKET_CH + " (RandomVerticalTranslate2D)")
put(11, "FP", "FP: vmap in_axes=None arguments stay Python values: RandomCutoutND calls "
    "`jax.vmap(random_cutout_nd, in_axes=(None, 0, None, None, None))` with `shape` a tuple of "
    "ints; unmapped arguments reach the function as the Python objects "
    "(repros/vmap_unmapped_static.py), so `patches.reshape(-1, *shape)` is concrete")


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
