V2 = {}


def v(repo, path, line, code, verdict, root, reason):
    V2[(repo, path, line, code)] = (verdict, root, reason)


F = "google+fedjax"
J = "google+jaxopt"
L = "google+learned_optimization"
NT = "google+neural-tangents"
OTT = "ott-jax+ott"
v(
    F,
    "fedjax/aggregators/compression.py",
    310,
    "JAX201",
    "FP",
    "P1",
    "`inverse_structured_rotation_pytree(..., client_rng, shapes)` must regenerate the random rotation of `structured_rotation_pytree(params, client_rng)` to undo it: the same key is required (a split would break the decompression)",
)
v(
    F,
    "fedjax/core/models_test.py",
    255,
    "JAX201",
    "DEBATABLE",
    None,
    "the test computes the expected `rng_term` from `split(rng)` exactly as evaluate_average_loss does, and passes the same rng in each subTest on purpose (deterministic expectation)",
)
v(F, "fedjax/core/models_test.py", 264, "JAX201", "DEBATABLE", None, "same as :255")
v(
    J,
    "docs/notebooks/implicit_diff/maml.ipynb",
    8,
    "JAX201",
    "TP",
    None,
    "`amplitude = uniform(key)`, then `key, _ = split(key)`: each draw uses the key before splitting it (use-then-split reuse)",
)
v(
    J,
    "docs/notebooks/perturbed_optimizers/perturbed_optimizers.ipynb",
    3,
    "JAX201",
    "TP",
    None,
    "`values = normal(rng)` (cell 30), then `rngs = split(rng, 2)` for the perturbations: reuse",
)
v(
    J,
    "tests/perturbations_test.py",
    452,
    "JAX201",
    "TP",
    None,
    "`h = uniform(self.rng)` then `split(self.rng, 2)` for the finite-difference perturbations (and self.rng was already given to jax.grad(pert_ranks_fun) at :449)",
)
v(
    L,
    "docs/notebooks/Part3_Truncation_TruncatedStep.py",
    226,
    "JAX201",
    "TP",
    None,
    "`keys = split(key, n_tasks)` initialises the states, then `randint(key, ...)` draws the start iterations from the parent key",
)
v(
    L,
    "docs/notebooks/no_dependency_learned_optimizer.ipynb",
    9,
    "JAX201",
    "TP",
    None,
    "cell 50 uses `key` for split(key, num_tasks) and randint(key, ...), then the training loop splits the same key again (cells 51 and 63 alike)",
)
v(
    L,
    "docs/notebooks/no_dependency_learned_optimizer.py",
    715,
    "JAX201",
    "TP",
    None,
    "jupytext copy of the notebook: randint(key) at :704 after split(key, num_tasks), then split(key) in the loop",
)
v(
    L,
    "docs/notebooks/no_dependency_learned_optimizer.py",
    967,
    "JAX201",
    "TP",
    None,
    "`keys = split(key, num_tasks)` then `randint(key, ...)`: reuse",
)
v(
    L,
    "learned_optimization/outer_trainers/truncated_pes.py",
    446,
    "JAX201",
    "FP",
    "P1",
    "antithetic PES: the positive and negative perturbation unrolls must see the same randomness (`vec_key` for both is the estimator's design; different keys would add variance and bias the difference)",
)
v(
    L,
    "learned_optimization/research/distill/truncated_distill.py",
    315,
    "JAX201",
    "TP",
    None,
    "with reset_opt_state, `split(key, num_tasks)` (:297) seeds the reset optimizer states, then the same `key` drives the unroll",
)
for p_, ln, why in (
    (
        "examples/elementwise.py",
        47,
        "`x1 = normal(key, (10, 2))`, `x2 = normal(key, (20, 2))`: on JAX 0.12 (threefry partitionable) x2[:10] == x1 exactly (checked)",
    ),
    (
        "notebooks/myrtle_kernel_with_neural_tangents.ipynb",
        1,
        "cell 9 split `key` into key1/key2; cell 15 draws `normal(key, ...)` from the parent",
    ),
    (
        "tests/batching_test.py",
        314,
        "rng was split at :289, then `normal(rng)` for both x_self (:314) and x_other (:315)",
    ),
    (
        "tests/monte_carlo_test.py",
        64,
        "returns `key` after `normal(key)` drew x1; the callers use it for the Monte Carlo samples: inputs and samples share a key",
    ),
    (
        "tests/predict_test.py",
        734,
        "y_train = normal(key), init_fn(key), x_test = normal(key): one key for labels, params and test inputs",
    ),
    (
        "tests/predict_test.py",
        1028,
        "x_train, x_test, y_train all `normal(rng, ...)`: overlapping prefixes",
    ),
    ("tests/predict_test.py", 1030, "rng used three times, then split"),
    (
        "tests/predict_test.py",
        1033,
        "pattern_train / pattern_test both `normal(rng)` after rng was split at :1030",
    ),
    (
        "tests/stax/branching_test.py",
        93,
        "X0_1 and X0_2 from the same key: X0_2[:4] equals the pre-cos X0_1 draws (partitionable threefry)",
    ),
    (
        "tests/stax/elementwise_test.py",
        323,
        "x1 = normal(key, (2, ...)), x2 = normal(key, (4, ...)): x2[:2] == x1 (checked on 0.12)",
    ),
    ("tests/stax/elementwise_test.py", 468, "same x1/x2 pattern"),
    ("tests/stax/elementwise_test.py", 599, "same X0_1/X0_2 pattern"),
    ("tests/stax/elementwise_test.py", 622, "same X0_1/X0_2 pattern"),
    ("tests/stax/linear_test.py", 195, "same X0_1/X0_2 pattern"),
    ("tests/stax/linear_test.py", 201, "same X0_1/X0_2 pattern"),
    (
        "tests/stax/linear_test.py",
        346,
        "`x0 = normal(key)` then `test_utils.mask(x0, ..., key, p)`: the mask is drawn from the key of the data",
    ),
    (
        "tests/stax/stax_test.py",
        623,
        "x_dense = normal(key) then monte_carlo_kernel_fn(..., split(key, 2)[0], ...)",
    ),
    ("tests/stax/stax_test.py", 639, "x1/x2 from one rng: x2[:2] == x1"),
):
    code = "JAX201"
    v(NT, p_, ln, code, "TP", None, why)
v(
    OTT,
    "docs/tutorials/misc/000_tracking_progress.ipynb",
    5,
    "JAX206",
    "FP",
    "P2",
    "`key, *subkeys = jax.random.split(jax.random.key(seed), 4)`: the starred target is a Python list of keys, `subkeys[0]` indexes the list",
)
v(
    OTT,
    "docs/tutorials/quadratic/000_gromov_wasserstein.ipynb",
    14,
    "JAX206",
    "FP",
    "P2",
    "`rng, *subrngs = split(key(14), 4)`: `subrngs[1:]` slices a Python list (and the callee indexes that list)",
)
v(
    OTT,
    "src/ott/geometry/low_rank.py",
    308,
    "JAX201",
    "FP",
    "P1",
    "random-feature kernel approximation: the feature maps of x and y must use the same random projection (`_arccos_kernel(rng, x)` and `_arccos_kernel(rng, y)`), otherwise k(x, y) ~ phi(x).phi(y) is wrong",
)
for ln, why in (
    (133, "c1 = normal(rngs[0], (n, r)), d1 = normal(rngs[0], (n, q)): overlapping draws"),
    (
        148,
        "rngs[1] already drew c2 and d2, then draws `mat` in the loop (and the same mat for both axes iterations' prefixes)",
    ),
):
    v(OTT, "tests/geometry/lr_cost_test.py", ln, "JAX201", "TP", None, why)
v(
    OTT,
    "tests/geometry/semidiscrete_pointcloud_test.py",
    34,
    "JAX201",
    "TP",
    None,
    "`rng_data, rng_sample = split(rng)` then `normal(rng)` for y (rng_data unused): reuse of the parent",
)
v(
    OTT,
    "tests/neural/data/semidiscrete_dataloader_test.py",
    35,
    "JAX201",
    "TP",
    None,
    "same: split into rng_data/rng_solve, then normal(rng) from the parent",
)
v(
    OTT,
    "tests/solvers/quadratic/fgw_test.py",
    43,
    "JAX201",
    "TP",
    None,
    "x and x_2 both `uniform(rngs[0])`, y and y_2 both `uniform(rngs[1])` with different widths: correlated fixtures",
)
v(
    OTT,
    "tests/tools/soft_sort_test.py",
    230,
    "JAX201",
    "TP",
    None,
    "split(rng, 2) then `normal(rng)` for y: reuse of the parent",
)
