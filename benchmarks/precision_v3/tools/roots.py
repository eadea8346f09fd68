HEADER = """# Precision v3, TUNING half: false positives by root cause (helper H7, branch r3-prec)

Review complete (11:10 UTC): every behavioural finding of the tuning half was read. Corpus and flip:
`/work/precision-v3/corpus.json` (= `benchmarks/precision_v3/corpus.json` on r3-prec).
Tuning half (13 repos, 327k .py lines + 26k notebook lines): araffin/sbx, dynamiqs/dynamiqs,
google-deepmind/gemma, google-deepmind/kfac-jax, google-deepmind/penzai, google-deepmind/tapnet,
google/CommonLoopUtils, google/evojax, google/fedjax, google/jaxopt, google/learned_optimization,
google/neural-tangents, ott-jax/ott. Sources: `/work/precision-v3/tuning/repos/<owner+name>`;
findings (main's jaxlint, default selection, each repo linted from its own root):
`/work/precision-v3/tuning/findings/<owner+name>.json`. **Do not run jaxlint on
`/work/precision-v3/check/`** (the held-out half).

Each reproduction lives in `/work/precision-v3/tuning/repros/` (copied to `benchmarks/precision_v3/repros/` on r3-prec) (a file, or a small package:
run jaxlint on the package folder, e.g. `cd r01_pkg && python -m jaxlint check .`), runs cleanly on
JAX 0.12 (`/work/venv/bin/python`), and makes main's jaxlint report the finding.
"""

FAMILY_NOTES = """Notes per family:
* JAX1xx: 3 TP, all one real bug (fedjax `walsh_hadamard_transform` is `@jax.jit` with
  `small_n` not static and its own test passes it: TracerBoolConversionError, confirmed by
  running). Every other tracing finding is a static value (shape, metadata, config) taken as traced.
  Cross-cutting: 16 of the 27 FPs go through a call into ANOTHER module of the project (T1, T3,
  and T4's constructor case): with the helper copied into the same module the finding disappears,
  so cross-module calls have no return summary and default to "traced". By confidence: the 3 TPs
  are `high`; the FPs are 16 `high` + 11 `medium` (medium alone: 0 TP / 11 FP; high: 3 TP / 16 FP).
* JAX4xx: 0 TP of 16 (all `high` confidence). Each FP is either a static value with a few repeating values or a loop whose
  every iteration needs its own program.
* JAX5xx: 0 TP of 8 (1 debatable: a notebook that demonstrates the TypeError under `except TypeError`).
* JAX6xx: 4 TP (unblocked timeit / %%time), 5 FP (regions synchronised by np.stack / np.asarray /
  an `if` on an output), 5 DEBATABLE (JAX602 on a per-call debug log or a %%time demo cell whose
  text says it includes the jit).
* JAX7xx: 6 TP (learned_optimization asks for int64/float64 and never enables x64).
* JAX2xx: 138 findings. First a random sample of 40 (seed 20261202, `random.Random(seed).sample`
  over the family in file order): 33 TP, 5 FP, 2 DEBATABLE (precision 87%). Then the other 98
  were read too (they are the "extra" rows of tuning_review.json): 77 TP, 12 FP, 9 DEBATABLE.
  All 138: 110 TP, 17 FP, 11 DEBATABLE, precision 87% (110/127). The TPs are mostly test
  fixtures `x1 = normal(key, (2, ...)); x2 = normal(key, (4, ...))`: on JAX 0.12 (threefry
  partitionable by default) x2[:2] == x1 exactly (checked), so the "two different inputs" share
  rows; plus use-then-split / split-then-use-the-parent in notebooks, a library env reset that
  draws positions and headings from one key (evojax flocking.py:265), a finite-difference
  direction that is exactly 10 * x (ott sinkhorn_diff_test.py:284), a test gradient equal to its
  parameters (learned_optimization adafac_mlp_lopt_test.py:41). The FPs: the same key REQUIRED
  twice (P1: 7), a split written twice whose two children are used (P3: 5), indexing the Python
  list of a starred split target (P2: 4), a NumPy-random branch the traced caller never takes (P4: 1)."""

ROOTS = {
    "T1": {
        "title": "Return value of a helper in ANOTHER module of the project, called with a traced argument, taken as traced (here: `get_dims(x)` reads an equinox `eqx.field(static=True)`, annotated `-> tuple[int, ...] | None`)",
        "fact": "The same helpers defined in the same module are NOT reported (checked: the finding disappears when `get_dims` is moved next to `ptrace`, or replaced by `None`). So the cross-module call has no summary and its result defaults to traced. Facts missed: (a) cross-module return summary, (b) the return annotation `tuple[int, ...] | None` is static, (c) `x.dims` of an equinox Module whose field is `eqx.field(static=True)` is static.",
        "repro": "r01_pkg",
    },
    "T2": {
        "title": "Parameter of a jitted function with a Python default that no caller overrides (or annotated `str | None`)",
        "fact": "`@jax.jit def f(x, n=10)` called as `f(x)` binds `n` as the Python default, never a tracer. jaxlint treats every non-static parameter as traced. (fedjax :43 is the counter-example where a caller DOES pass the argument: a real bug, correctly reported.)",
        "repro": "r04_jit_default_never_overridden.py",
        "repro_note": "runs cleanly; JAX120 at :11 and :18. kfac-jax's `str | None` variant: `r04b_str_none_default.py`, JAX110 at :13",
    },
    "T3": {
        "title": "Python int from `x.shape` returned by a helper in another module (`tree_utils.first_dim(tree)` = `leaves[0].shape[0]`) taken as traced",
        "fact": "A helper that returns `....shape[0]` returns a Python int; the comparison / slice bound in the caller is static. Same cross-module gap as T1: with `first_dim` defined in the same module nothing is reported (checked).",
        "repro": "r02_pkg",
    },
    "T4": {
        "title": "Python attributes, properties and metadata methods of an object built from, or holding, traced leaves (pytree aux data, shape-derived properties, library operator metadata)",
        "fact": "`geom.is_online` (`self.batch_size is not None`), `prob.fused_penalty` (aux data), `prob.ndim_fused` (a leaf's shape), lineax `A.out_size()`, penzai `layer.input_structure()` / `.is_empty()` are Python values even when the object carries tracers. Two ways in, checked with single-module variants: (a) the result of a METHOD call on a traced object is traced (`geom = geom.materialize()` / `geom._cosine_to_sqeucl()`, `A.out_size()`, `layer.input_structure()`), even when the class is in the same module, and then every attribute/property of that result is; (b) an object built by a constructor from ANOTHER module with a traced argument is traced (`prob = gwb.GWBarycenterProblem(y=y, ...)`; the same constructor in the same module is not reported). Needed: property/attribute reads of a non-array object (a registered pytree, a dataclass, a library operator) are static unless proven to return an array leaf; a method summary for returns.",
        "repro": "r03_pkg",
        "repro_note": "runs cleanly; JAX110/111 at geo/k_means.py:13,15,16,23 (line 13, `geom.batch_size == -1`, is the same fact); lineax variant `r07_library_metadata_method.py` (JAX120 at :12/:13; running it needs `pip install lineax`), penzai variant `r08_structure_method_is_empty.py` (JAX110 at :38)",
    },
    "T5": {
        "title": "flax linen `__call__` argument that its only caller passes as a shape tuple from `x.shape`",
        "fact": "`self.initializer(batch_shape=(inputs['support_tracks'].shape[0],))` from a method of the parent module (set up in `setup`); the callee's required `__call__` argument is taken as traced because the Module is applied under jit.",
        "repro": "r06_flax_call_shape_arg.py",
    },
    "T6": {
        "title": "Parameter that `jax.vmap` leaves unmapped (`in_axes=[0] + [None] * 9`) taken as traced",
        "fact": "vmap passes an `in_axes=None` argument through unchanged: a Python int stays an int (checked by running: `type(a)` is `int` inside). jaxlint does not evaluate the `[0] + [None] * 9` in_axes expression (with a literal `[0, None, None]` it is not reported).",
        "repro": "r05_vmap_in_axes_none.py",
    },
    "C1": {
        "title": "Static argument / shape that takes a few values repeating across the loop (a bool flag, `range(3)`, full chunks + one ragged tail)",
        "fact": "The jit cache is keyed on the static value / shape: 2-3 compiles in total, then cache hits. A recompile finding needs a value that provably keeps changing.",
        "repro": "r11_jax403_static_value_repeats.py",
        "repro_note": "runs cleanly; JAX403 at :25 and :27; the ragged-tail variant is the second half of `r13_jax404_size_sweep.py` (not reported there)",
    },
    "C2": {
        "title": "Every iteration needs its own program: a sweep over solver objects, batch sizes, training-set sizes, derivatives or polynomial degrees",
        "fact": "Nothing can be hoisted or made traced: the static value / shape IS the experiment (timing per batch size, a learning curve per n_train, one program per solver). Within an outer jit, an inner static call is traced once per value, not compiled.",
        "repro": "r12_jax401_403_each_iteration_own_program.py",
        "repro_note": "runs cleanly; JAX403 at :27, JAX401 at :37 (the Hessian loop of the ott notebook is not reported in this .py form); size sweep: `r13_jax404_size_sweep.py` (JAX404 at :20 ×3)",
    },
    "C3": {
        "title": "Loop in a function that is only vmapped, never jitted, reported as an unrolled compiled program (JAX405)",
        "fact": "`vmap(train_network)(keys)` without jit executes op by op with batched values; there is no single program whose compile time grows with the loop.",
        "repro": "r17_jax405_vmap_only_loop.py",
    },
    "C4": {
        "title": "`jax.jit(partial(...))` in a loop but guarded by `if need_compile:` (rebuilt only when the configuration, and so every shape, changed)",
        "fact": "The rebuild is deliberate and rare; the flag is reset right after.",
        "repro": "r18_jax401_guarded_rebuild.py",
    },
    "M1": {
        "title": "Module-level variables rebound only BEFORE the jitted reader is defined/traced (notebook: `load_pattern()` in cell 8, the jitted reader in cell 9)",
        "fact": "The rebinding happens once, in a function called before the first trace; nothing changes the globals after it, so the baked-in constants are the current values.",
        "repro": "r15_jax503_globals_set_before_trace.py",
    },
    "M2": {
        "title": "Item assignment into the Python list returned by `jnp.split` taken as array mutation (JAX501)",
        "fact": "`jnp.split` / `jnp.array_split` return `list[Array]`.",
        "repro": "r14_jax501_jnp_split_list.py",
    },
    "M3": {
        "title": "Trace-time Python bookkeeping (a summary library's name-scope stack and name counter) read at trace time on purpose (JAX503)",
        "fact": "The globals hold strings/counters used to name summaries of the program being traced; reading them at trace time is the design, no array constant is baked in.",
        "repro": "r16_jax503_trace_time_registry.py",
    },
    "B1": {
        "title": "Timed region already synchronised by an `if` on an output of the same jitted call (JAX601)",
        "fact": "`if all_done(valid_mask): break` every step reads valid_mask on the host; scores comes out of the same program, so the clock read after the loop is synchronised. (The fix jaxlint offers here is harmless but needless.)",
        "repro": "r10_jax601_if_on_result_syncs.py",
    },
    "B2": {
        "title": "Timed region already synchronised by a host read of its outputs (`np.stack(outputs)`, `np.asarray(f(final_state))`) (JAX601)",
        "fact": "`np.stack` / `np.asarray` / `np.concatenate` of jax arrays copy them to the host and wait for them.",
        "repro": "r09_jax601_np_stack_syncs.py",
    },
    "P1": {
        "title": "The same key is REQUIRED twice (an inverse transform that must regenerate the forward transform's randomness; the +/- halves of an antithetic estimator; random features shared by x and y) (JAX201)",
        "fact": "These are common random numbers by construction: the fix (split) would break the algorithm (decompression no longer inverts the rotation; the kernel approximation k(x, y) = phi(x).phi(y) needs one projection). The names give it away: `inverse_*`, `pos`/`neg` or `p_`/`n_`, `k1`/`k2` of one feature map applied to x and y.",
        "repro": "r19_jax201_required_common_randomness.py",
        "repro_note": "runs cleanly; JAX201 at :19 and :29 (the antithetic variant with the loss passed as a parameter is not reported in this reduction; in truncated_pes.py it is a method `self.pmap_unroll_next_state` called twice with `vec_key`)",
    },
    "P2": {
        "title": "Indexing the Python list bound by a starred split target, `key, *subkeys = split(key, 4)`, taken as indexing a typed key (JAX206)",
        "fact": "Starred assignment always binds a list; `subkeys[0]` and `subkeys[1:]` index / slice that list.",
        "repro": "r20_jax206_starred_split_list.py",
    },
    "P3": {
        "title": "The same `split(k)` written twice and its two DIFFERENT children used (`split(k)[1]`, then `split(split(k)[0])[1]`) taken as reusing k (JAX201)",
        "fact": "split is deterministic: computing it twice and taking child [1] from one copy and child [0] from the other is one split. Only the same child (or the key itself) used twice is a reuse.",
        "repro": "r21_jax201_recomputed_split.py",
    },
    "P4": {
        "title": "NumPy random call in a branch selected by a static flag that the traced caller sets the other way (`use_jnp=True`) (JAX204)",
        "fact": "`if use_jnp: jax.random.randint(key, ...) else: onp.random.randint(...)`; the jitted caller passes `use_jnp=True` (a literal), so the NumPy branch is never traced.",
        "repro": "r22_jax204_numpy_branch_not_traced.py",
    },
}
