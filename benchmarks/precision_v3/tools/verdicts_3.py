"""Verdicts for the JAX2xx findings outside the random sample (read after it; reviewed: 'extra')."""

import json

V3 = {}
_rows = [
    r
    for r in json.load(open("/work/precision-v3/tuning/worklist.json"))["rows"]
    if not r["in_sample"]
]
FIXTURE = "test inputs `x1 = normal(key, (a, ...))`, `x2 = normal(key, (b, ...))` from one key: with partitionable threefry (default on 0.12) the smaller array is a prefix of the larger (checked), so the two inputs share rows"
SPECIAL = {
    ("google+evojax", "evojax/task/flocking.py", 265): (
        "TP",
        None,
        "library env reset: `sample_position(key, ...)` and `sample_theta(key, ...)` with the same key (and `next_key, key = split(key)` returns next_key): positions and headings come from one key",
    ),
    ("google+fedjax", "fedjax/aggregators/compression.py", 250): (
        "FP",
        "P1",
        "inverse_structured_rotation_pytree must reuse `rotation_rng` of structured_rotation_pytree to undo the rotation (same as :310)",
    ),
    ("google+fedjax", "fedjax/aggregators/walsh_hadamard_test.py", 50): (
        "FP",
        "P1",
        "test that inverse_structured_rotation(structured_rotation(x, rng), rng) == x: the same key is the point",
    ),
    ("google+fedjax", "fedjax/aggregators/walsh_hadamard_test.py", 60): (
        "FP",
        "P1",
        "same as :50 for the pytree version",
    ),
    ("google+fedjax", "fedjax/algorithms/hyp_cluster_test.py", 42): (
        "FP",
        "P3",
        "`split(rng_0)[1]` and `split(split(rng_0)[0])[1]`: the same split computed twice, its two DIFFERENT children used (a replica of the library's key sequence): no reuse",
    ),
    ("google+fedjax", "fedjax/algorithms/hyp_cluster_test.py", 73): ("FP", "P3", "same as :42"),
    ("google+fedjax", "fedjax/core/models_test.py", 250): (
        "FP",
        "P3",
        "same recomputed-split pattern as hyp_cluster_test.py:42",
    ),
    ("google+fedjax", "fedjax/core/models_test.py", 302): (
        "FP",
        "P3",
        "same recomputed-split pattern",
    ),
    ("google+fedjax", "fedjax/core/models_test.py", 378): (
        "FP",
        "P3",
        "same recomputed-split pattern",
    ),
    ("google+fedjax", "fedjax/core/models_test.py", 279): (
        "DEBATABLE",
        None,
        "same rng passed to evaluate_average_loss in each subTest on purpose (as :255)",
    ),
    (
        "google+learned_optimization",
        "learned_optimization/outer_trainers/gradient_learner_test.py",
        94,
    ): (
        "DEBATABLE",
        None,
        "a test that calls gradient_worker_compute twice with the same key on mock estimators (deterministic expectations)",
    ),
    ("google+learned_optimization", "learned_optimization/summary.py", 205): (
        "FP",
        "P4",
        "`onp.random.randint` is in the `use_jnp=False` branch; the only traced caller (eval_training._next_state) passes `use_jnp=True`, which takes `jax.random.randint(key, ...)`",
    ),
    (
        "google+learned_optimization",
        "learned_optimization/time_filter/run_train_time_model.py",
        118,
    ): (
        "DEBATABLE",
        None,
        "the same key for the train-set and test-set evaluation: common random numbers in evaluation, harmless",
    ),
    ("google+learned_optimization", "learned_optimization/outer_trainers/truncated_pes.py", 470): (
        "TP",
        None,
        "`key` was split into the per-device `vec_key` (:404), then drives summary.sample_value (weak: a summary index)",
    ),
    ("google+learned_optimization", "learned_optimization/outer_trainers/full_es.py", 781): (
        "TP",
        None,
        "`vec_key, vec_key1 = split(vec_key)` then the unroll gets `vec_key` (not vec_key1), which is split again at :781",
    ),
    (
        "google+learned_optimization",
        "learned_optimization/learned_optimizers/adafac_mlp_lopt_test.py",
        41,
    ): (
        "TP",
        None,
        "`p = normal(key, [2, 2])`, `g = normal(key, [2, 2])`: the test's gradient equals its parameters exactly",
    ),
    ("google+neural-tangents", "tests/batching_test.py", 404): (
        "DEBATABLE",
        None,
        "the same `keys` in each subTest to compare kernel_fn with its pmapped version: deliberate, the comparison needs the same key",
    ),
    ("google+neural-tangents", "tests/batching_test.py", 423): ("DEBATABLE", None, "same as :404"),
    ("google-deepmind+kfac-jax", "kfac_jax/_src/optimizer.py", 1506): (
        "DEBATABLE",
        None,
        "initial damping calibration calls _step repeatedly 'keeping the rng and batch the same at each call' (comment :1491): deliberate",
    ),
    ("google-deepmind+kfac-jax", "kfac_jax/_src/optimizer.py", 1472): (
        "DEBATABLE",
        None,
        "at step 0 with calibration, the calibration (whose results except damping are thrown away) and the real step share rng: deliberate and harmless",
    ),
    ("ott-jax+ott", "docs/tutorials/misc/000_tracking_progress.ipynb", 14): (
        "FP",
        "P2",
        "`subkeys[1:]` slices the Python list from `key, *subkeys = split(...)`",
    ),
    ("ott-jax+ott", "docs/tutorials/quadratic/000_gromov_wasserstein.ipynb", 5): (
        "FP",
        "P2",
        "`subrngs[0]` indexes the Python list from `rng, *subrngs = split(...)`",
    ),
    ("ott-jax+ott", "src/ott/geometry/low_rank.py", 304): (
        "FP",
        "P1",
        "Gaussian random features for x and y must share the projection (as :308)",
    ),
    ("ott-jax+ott", "docs/tutorials/neural/400_MetaOT.ipynb", 10): (
        "DEBATABLE",
        None,
        "cell 17 draws the interpolation for Meta OT with the same key as the Sinkhorn one in cell 8, so the two plots are comparable: deliberate",
    ),
    ("ott-jax+ott", "tests/math/lse_test.py", 42): (
        "DEBATABLE",
        None,
        "the same finite-difference direction for axis 0 and axis 1: harmless",
    ),
    ("ott-jax+ott", "tests/solvers/linear/sinkhorn_diff_test.py", 284): (
        "TP",
        None,
        "`x = normal(rngs[0], (n, d)) / 10` and `delta = normal(rngs[0], (n, d))`: the finite-difference direction is exactly 10 * x",
    ),
    ("ott-jax+ott", "docs/tutorials/neural/500_otfm.ipynb", 25): (
        "TP",
        None,
        "both torus point clouds from `gen_torus_points(rng, ...)`: the second cluster repeats the first one's angles",
    ),
}
for r in _rows:
    k3 = (r["repo"], r["path"], r["line"])
    code = r["code"]
    if k3 in SPECIAL:
        verdict, root, reason = SPECIAL[k3]
    elif (
        r["repo"] == "google+neural-tangents"
        and r["path"].startswith("tests/")
        and "normal` on line" in r["msg"]
        and "then `normal`" in r["msg"]
    ):
        verdict, root, reason = "TP", None, FIXTURE
    elif code == "JAX203":
        verdict, root, reason = (
            "TP",
            None,
            "`fold_in(key, i)` seeds the estimators' states and `split(key)[0]` the central update: on 0.12 split(k, 2)[i] == fold_in(k, i) (checked), so key1 equals the first estimator's init key",
        )
    else:
        verdict, root, reason = (
            "TP",
            None,
            "real reuse: "
            + r["msg"].split(";")[0].replace("key ", "", 1)
            + " (use-then-split, split-then-use-the-parent, or one key for data and mask/params)",
        )
    V3[(r["repo"], r["path"], r["line"], code)] = (verdict, root, reason)
