# (repo, path, line, code): (verdict, root-cause id or None, reason)
V = {}


def v(repo, path, line, code, verdict, root, reason):
    V[(repo, path, line, code)] = (verdict, root, reason)


D = "dynamiqs+dynamiqs"
v(
    D,
    "dynamiqs/qarrays/utils.py",
    134,
    "JAX110",
    "FP",
    "T1",
    "`xdims != dims` in init_dims: `xdims` is `get_dims(x)` (an equinox static field, annotated `Optional[tuple[int, ...]]`) and `dims` the static_argnums arg of ptrace: Python tuples",
)
v(
    D,
    "dynamiqs/qarrays/utils.py",
    313,
    "JAX110",
    "FP",
    "T1",
    "`np.prod(dims) != np.max(shape[-2:])` on `dims` from init_dims (Python tuple) and a shape: all static",
)
v(
    D,
    "dynamiqs/utils/general.py",
    340,
    "JAX101",
    "FP",
    "T1",
    "`np.asarray(dims)`: dims = init_dims(get_dims(x), dims, x.shape), a tuple of Python ints (QArray.dims is eqx.field(static=True), dims is static_argnums)",
)
v(
    D,
    "dynamiqs/utils/general.py",
    346,
    "JAX110",
    "FP",
    "T1",
    "`if prod_dims != hdim`: np.prod of the static dims vs `x.shape[-1]`: Python ints",
)
v(
    D,
    "dynamiqs/utils/general.py",
    375,
    "JAX120",
    "FP",
    "T1",
    "`x.reshape(*bshape, *dims)` with the static dims",
)
v(D, "dynamiqs/utils/general.py", 379, "JAX120", "FP", "T1", "same as :375")
v(
    D,
    "dynamiqs/utils/general.py",
    383,
    "JAX101",
    "FP",
    "T1",
    "`dims[keep].tolist()` on a numpy array of static dims",
)
F = "google+fedjax"
v(
    F,
    "fedjax/aggregators/walsh_hadamard.py",
    43,
    "JAX110",
    "TP",
    None,
    "`@jax.jit` without static_argnums and `if small_n <= 1`: the test walsh_hadamard_test.py:38 passes small_n positionally -> TracerBoolConversionError (confirmed by running it, JAX 0.12)",
)
v(
    F,
    "fedjax/aggregators/walsh_hadamard.py",
    77,
    "JAX110",
    "TP",
    None,
    "`n //= small_n` makes n traced when small_n is passed (the test does): `while n > 1` fails too; same bug as :43",
)
v(
    F,
    "fedjax/aggregators/walsh_hadamard.py",
    78,
    "JAX110",
    "TP",
    None,
    "`min(n, small_n)` with the traced small_n; same bug as :43",
)
J = "google+jaxopt"
v(
    J,
    "docs/notebooks/deep_learning/adversarial_training.ipynb",
    55,
    "JAX120",
    "FP",
    "T2",
    "`range(maxiter)` in `@jax.jit def pgd_attack(..., epsilon=0.1, maxiter=10)`: every call leaves maxiter at its default, bound as a Python int",
)
L = "google+learned_optimization"
v(
    L,
    "learned_optimization/outer_trainers/common.py",
    70,
    "JAX120",
    "FP",
    "T3",
    "`num_tasks = tree_utils.first_dim(tree) // 2`: first_dim returns `leaves[0].shape[0]`, a Python int",
)
v(L, "learned_optimization/outer_trainers/common.py", 71, "JAX120", "FP", "T3", "same as :70")
v(
    L,
    "learned_optimization/outer_trainers/common.py",
    109,
    "JAX111",
    "FP",
    "T3",
    "`assert tree_utils.first_dim(datas) == unroll_length`: a shape int vs a static_argnames int",
)
v(
    L,
    "learned_optimization/outer_trainers/truncated_step.py",
    210,
    "JAX110",
    "FP",
    "T3",
    "`if num_tasks_in_state == self.num_tasks * 2` with num_tasks_in_state = first_dim(unroll_state): shape int",
)
v(
    L,
    "learned_optimization/research/distill/truncated_distill.py",
    126,
    "JAX111",
    "FP",
    "T3",
    "same pattern as common.py:109",
)
NT = "google+neural-tangents"
v(
    NT,
    "notebooks/learning_curves.ipynb",
    36,
    "JAX120",
    "FP",
    "T2",
    "`jnp.linspace(b, a, n_points)` in `@jit def get_mp_density(alpha, n_points=1000)`; the only caller passes alpha alone",
)
K = "google-deepmind+kfac-jax"
v(
    K,
    "kfac_jax/_src/utils/parallel.py",
    49,
    "JAX110",
    "FP",
    "T2",
    "`axis_name: Optional[str] = None` of sync_and_divide_value, wrapped as `jax.jit(sync_and_divide_value)`; no caller passes it (the pmap variant binds 'i' by partial): a string or None",
)
P = "google-deepmind+penzai"
v(
    P,
    "penzai/deprecated/v1/toolshed/check_layers_by_tracing.py",
    107,
    "JAX110",
    "FP",
    "T4",
    "`layer.input_structure()` returns the layer's declared ArraySpec structure and `pz.select(...).is_empty()` a Python bool: metadata under jax.eval_shape",
)
T = "google-deepmind+tapnet"
v(
    T,
    "tapnet/trajan/track_autoencoder.py",
    68,
    "JAX120",
    "FP",
    "T5",
    "flax `ParamStateInit.__call__(batch_shape)`: the only caller passes `(inputs['support_tracks'].shape[0],)`, a shape tuple",
)
OTT = "ott-jax+ott"
v(
    OTT,
    "src/ott/geometry/regularizers.py",
    503,
    "JAX120",
    "FP",
    "T4",
    "`d = A.out_size()` of a lineax AbstractLinearOperator: a Python int (operator metadata)",
)
v(OTT, "src/ott/geometry/regularizers.py", 506, "JAX120", "FP", "T4", "same as :503")
v(
    OTT,
    "src/ott/tools/k_means.py",
    271,
    "JAX120",
    "FP",
    "T6",
    "`jnp.full((max_iterations,), ...)`: `_k_means` is `vmap(in_axes=[0] + [None] * 9)`, max_iterations is unmapped and passed through as the caller's Python int",
)
v(
    OTT,
    "src/ott/tools/k_means.py",
    319,
    "JAX110",
    "FP",
    "T6",
    "`force_scan = min_iterations == max_iterations` of two in_axes=None ints; a Python bool",
)
v(
    OTT,
    "src/ott/tools/k_means.py",
    393,
    "JAX111",
    "FP",
    "T4",
    "`assert geom.is_squared_euclidean`: a property (isinstance of the cost_fn in the aux data) of a PointCloud; Python bool under jit",
)
v(
    OTT,
    "src/ott/tools/k_means.py",
    396,
    "JAX110",
    "FP",
    "T4",
    "`if geom.is_online`: `self.batch_size is not None`, aux data",
)
for ln in (151, 153, 154, 156):
    v(
        OTT,
        "tests/solvers/quadratic/gw_barycenter_test.py",
        ln,
        "JAX111",
        "FP",
        "T4",
        "assert on a GWBarycenterProblem property/attribute (fused_penalty, max_measure_size, num_measures, ndim_fused: floats from aux data and shape ints) inside the jitted barycenter; num_per_segment is static_argnums",
    )

# JAX4xx
E = "google+evojax"
v(
    E,
    "examples/train_ant_map_elites.py",
    171,
    "JAX403",
    "FP",
    "C1",
    "static `ix` takes the 3 values of range(num_viz) in every step: 3 compiles, then cache hits",
)
v(
    J,
    "tests/common_test.py",
    418,
    "JAX403",
    "FP",
    "C2",
    "static `solver` iterates over 15 different solver objects: each needs its own program (the point of the test), nothing to make traced",
)
v(
    L,
    "learned_optimization/eval_training.py",
    208,
    "JAX403",
    "FP",
    "C1",
    "static `with_metrics` is a bool: 2 compiles in all",
)
for ln in (148, 153, 157, 178):
    v(
        L,
        "learned_optimization/time_filter/timings.py",
        ln,
        "JAX401",
        "FP",
        "C2",
        "timing benchmark over num_tasks in [1, 2, 4, ...]: each iteration has a new batch size (new shapes) and new closures; it must compile once per size, nothing to hoist",
    )
v(
    NT,
    "notebooks/learning_curves.ipynb",
    35,
    "JAX403",
    "FP",
    "C2",
    "static `degree` of normalized_gegenbauer in the loop over degrees inside the jitted get_kernel: each degree is a different polynomial recursion, traced once inside the outer jit",
)
v(NT, "notebooks/learning_curves.ipynb", 36, "JAX403", "FP", "C2", "same as :35")
for ln in (58, 59, 60):
    v(
        NT,
        "notebooks/learning_curves.ipynb",
        ln,
        "JAX404",
        "FP",
        "C2",
        "learning-curve sweep over training-set sizes n_train: each size is a different solve (compiled once, reused for the n_average repeats); padding would change the experiment",
    )
v(
    NT,
    "notebooks/neural_tangents_cookbook.ipynb",
    8,
    "JAX405",
    "FP",
    "C3",
    "train_network is only called plainly or under `vmap(train_network)` (never jit): the 10000-step loop runs op by op, there is no unrolled program to compile",
)
v(
    T,
    "tapnet/robotap/tapir_clustering.py",
    731,
    "JAX401",
    "FP",
    "C4",
    "the jit(partial(update, num_cats=...)) is rebuilt only under `if need_compile:` (set when num_cats, and so every parameter shape, changes; reset right after)",
)
v(
    T,
    "tapnet/robotap/tapir_clustering.py",
    783,
    "JAX404",
    "FP",
    "C1",
    "`np.arange(i, min(N, i + 128))`: chunks of 128 plus one ragged tail, 2 shapes in all",
)
v(
    OTT,
    "docs/tutorials/linear/400_Hessians.ipynb",
    11,
    "JAX401",
    "FP",
    "C2",
    "4 Hessians (w.r.t. 2 arguments x implicit/unrolled), each a different program, each timed with %timeit: nothing to hoist",
)

# JAX5xx
v(
    E,
    "examples/notebooks/LeniaEvoJAX.ipynb",
    9,
    "JAX503",
    "FP",
    "M1",
    "the globals are set by load_pattern(pattern), called once in cell 8, before express_gene is defined (cell 9) and traced: nothing changes them after the trace (2 findings on this line)",
)
v(
    E,
    "examples/notebooks/LeniaEvoJAX.ipynb",
    10,
    "JAX503",
    "FP",
    "M1",
    "same as cell 9 line 9 (n_channel)",
)
v(
    J,
    "tests/scipy_wrappers_test.py",
    59,
    "JAX501",
    "FP",
    "M2",
    "`pytree = jnp.split(array, idx)` is a Python list of arrays: `pytree[0] = ...` assigns into the list",
)
v(J, "tests/scipy_wrappers_test.py", 60, "JAX501", "FP", "M2", "same as :59")
v(
    L,
    "learned_optimization/summary.py",
    130,
    "JAX503",
    "FP",
    "M3",
    "`_summary_scope_stack` is the name-scope stack of a summary library, read at trace time on purpose to name the summaries of the program being traced (strings, no array value)",
)
v(
    L,
    "learned_optimization/summary.py",
    134,
    "JAX503",
    "FP",
    "M3",
    "`count_per_tags` is the trace-time counter that deduplicates summary names (reset between traces on purpose)",
)
v(
    P,
    "notebooks/selectors.ipynb",
    2,
    "JAX501",
    "DEBATABLE",
    None,
    "`array[1, 2] = 42` inside `try: ... except TypeError: traceback.print_exc()`: the notebook demonstrates the error on purpose",
)

# JAX6xx
v(
    D,
    "tests/core/test_time_qarray.py",
    140,
    "JAX601",
    "TP",
    None,
    "`timeit.timeit(lambda: x(1.0), number=1000)` of a jitted call without blocking (compared with the eager call): measures dispatch (the test is skipped as broken)",
)
v(D, "tests/core/test_time_qarray.py", 281, "JAX601", "TP", None, "same as :140")
v(
    E,
    "evojax/sim_mgr.py",
    296,
    "JAX601",
    "FP",
    "B1",
    "`if all_done(valid_mask): break` in every step is a host read of valid_mask, an output of the same jitted update_score_and_mask call that produces scores: the region is synchronised",
)
v(
    E,
    "evojax/sim_mgr.py",
    296,
    "JAX602",
    "DEBATABLE",
    None,
    "the steps/s debug log of _for_loop_eval, a method called every generation: only the first evaluation includes the compile of the module-level jitted helpers",
)
v(E, "evojax/sim_mgr.py", 300, "JAX602", "DEBATABLE", None, "same as :296 (all_done)")
v(
    E,
    "examples/notebooks/SpikingNeuralNetworksMNIST.ipynb",
    7,
    "JAX601",
    "TP",
    None,
    "%%time cell of 200 eager simulation steps with nothing read back: the cell ends before the last dispatched work (weak: a demo cell)",
)
v(
    L,
    "learned_optimization/outer_trainers/gradient_learner.py",
    403,
    "JAX601",
    "DEBATABLE",
    None,
    "per-estimator 'time' metric: the region does `onp.asarray(task_param)` of the estimator output (a sync of part of the outputs), but the gradient may come from a separate dispatch",
)
v(
    L,
    "learned_optimization/research/univ_nfn/gen_pred/train_pred.py",
    265,
    "JAX601",
    "FP",
    "B2",
    "epoch time is read after evaluate(...), which does `np.asarray(jax.nn.sigmoid(logit))` on predictions from the final theta: everything the epoch dispatched is done",
)
v(
    T,
    "colabs/tapnext_demo.ipynb",
    20,
    "JAX601",
    "FP",
    "B2",
    "cell 10 (%%time): `np.stack(tracks)` / `np.stack(visibles)` read every output on the host before the cell ends",
)
v(
    T,
    "colabs/tapnext_demo.ipynb",
    16,
    "JAX601",
    "FP",
    "B2",
    "cell 11: same np.stack of all outputs, then plotting",
)
v(
    T,
    "colabs/tapnext_demo.ipynb",
    17,
    "JAX601",
    "FP",
    "B2",
    "cell 12: same np.stack, then metrics computed with numpy",
)
v(
    T,
    "colabs/tapnext_demo.ipynb",
    20,
    "JAX602",
    "DEBATABLE",
    None,
    "cell 10's %%time covers dataset loading, inference and video rendering of a demo: the compile is in it, but no throughput is claimed",
)
v(
    OTT,
    "docs/tutorials/barycenter/000_Sinkhorn_Barycenters.ipynb",
    4,
    "JAX601",
    "TP",
    None,
    "%%time of `jax.jit(FixedBarycenter())(problem)` with nothing blocking: the cell ends at dispatch",
)
v(
    OTT,
    "docs/tutorials/barycenter/000_Sinkhorn_Barycenters.ipynb",
    4,
    "JAX602",
    "DEBATABLE",
    None,
    "the markdown above says 'We jit and run': the %%time deliberately includes the compile",
)

# JAX7xx (no x64 anywhere in learned_optimization)
for p_, ln in (
    ("learned_optimization/circular_buffer.py", 60),
    ("learned_optimization/optimizers/gradient_accumulator.py", 80),
    ("learned_optimization/optimizers/nadamw.py", 173),
    ("learned_optimization/outer_train.py", 331),
    ("learned_optimization/outer_trainers/truncation_schedule.py", 95),
    ("learned_optimization/research/brax/run_single_machine_rl_trainer.py", 80),
):
    v(
        L,
        p_,
        ln,
        "JAX701",
        "TP",
        None,
        "64-bit dtype requested; learned_optimization never enables x64 (no jax_enable_x64 anywhere): int32/float32 with a UserWarning",
    )
