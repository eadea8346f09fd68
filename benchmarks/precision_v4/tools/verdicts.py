"""Verdicts of the tuning half: (repo, path, line, code) -> (verdict, root cause or None, reason).

TP: the finding is what the rule says, whatever the impact. FP: the rule's claim is wrong for
this code. DEBATABLE: the claim is true but the code is deliberate and harmless.
"""

V: dict[tuple[str, str, int, str], tuple[str, str | None, str]] = {}


def v(repo, path, line, code, verdict, root, reason):
    V[(repo, path, line, code)] = (verdict, root, reason)


X = "Ceyron+exponax"
v(
    X,
    "docs/examples/initial_condition_showcase_1d.ipynb",
    1,
    "JAX201",
    "TP",
    None,
    "cell 9 draws the scalar amplitude from `amplitude_key`, cell 11 draws `uniform(amplitude_key, (2,))` again: the second showcase's first amplitude repeats the first exactly (checked on JAX 0.12: uniform(k, ())) == uniform(k, (2,))[0]; notebook demo, low impact)",
)
v(
    X,
    "docs/examples/initial_condition_showcase_1d.ipynb",
    2,
    "JAX201",
    "TP",
    None,
    "same as line 1 for `phase_key` (cell 9 and cell 11 draw from the same key)",
)
v(
    X,
    "tests/test_viz.py",
    99,
    "JAX201",
    "TP",
    None,
    "`state_1d = normal(KEY, (64,))` then `state_3d = normal(KEY, (1, 64, 64))` in one test: the inputs share their leading values (checked: normal(k, (1, 64, 64))[0, 0] == normal(k, (64,))); test-quality only, the test checks only the ndim error",
)

D = "google+dopamine"
v(
    D,
    "dopamine/jax/agents/ppo/ppo_agent.py",
    143,
    "JAX201",
    "TP",
    None,
    "`key` is split into the per-state `batch_keys` (:127, action sampling) and then handed unchanged to `create_minibatches_and_shuffle`, which draws `permutation(key, ...)` (:250): the minibatch order is derived from the key the action samples came from",
)
v(
    D,
    "dopamine/labs/atari_100k/replay_memory/subsequence_replay_buffer.py",
    544,
    "JAX201",
    "TP",
    None,
    "`t_indices = randint(rng, (B,), min_id, max_id)` and `b_indices = randint(rng, (B,), 0, n_envs)` with one key: the env index of each sampled transition is a function of its time index (checked on JAX 0.12: randint(k, (8,), 0, 4) == randint(k, (8,), 0, 1000) % 4 element for element)",
)
v(
    D,
    "dopamine/labs/atari_100k/replay_memory/subsequence_replay_buffer.py",
    569,
    "JAX201",
    "TP",
    None,
    "same in the resampling loop: `t_index` and `b_index` from the same `rng` (:566, :569)",
)
v(
    D,
    "dopamine/labs/atari_100k/replay_memory/subsequence_replay_buffer.py",
    572,
    "JAX501",
    "TP",
    None,
    "`b_indices` is the jax array of :544 (only `t_indices` was converted with `np.array` at :546): `b_indices[i] = b_index` raises TypeError whenever an invalid transition is resampled (checked)",
)
v(
    D,
    "dopamine/labs/atari_100k/spr_agent.py",
    390,
    "JAX601",
    "TP",
    None,
    "the `aug_time` region (:388-396) times two calls of the jitted augmentation and never blocks on `states`/`next_states`; `AugTime` logs dispatch time",
)

v(
    "google-deepmind+alphafold3",
    "src/alphafold3/model/network/featurization.py",
    113,
    "JAX701",
    "TP",
    None,
    "alphafold3 never enables x64 (no `jax_enable_x64` in the repository): `broadcasted_iota(jnp.int64, ...)` is int32 with a UserWarning on every trace (harmless for these indices)",
)
v(
    "google-deepmind+disentangled_rnns",
    "disentangled_rnns/library/rnn_utils_test.py",
    358,
    "JAX701",
    "TP",
    None,
    "`jnp.float64(3.14)` without x64 is float32: the test's expected string '3.140000104904175' is float32's 3.14, while the comment says 'JAX float64 serializes...'",
)

N = "google-research+neuralgcm"
v(
    N,
    "neuralgcm/features_test.py",
    126,
    "JAX201",
    "TP",
    None,
    "`{f'random_field_{i}': uniform(rng, shape) for i in range(3)}`: the three 'random' fields are identical (test-quality)",
)
v(
    N,
    "neuralgcm/features_test.py",
    131,
    "JAX201",
    "TP",
    None,
    "`randomness = uniform(rng, ...)` then `model.init(rng, ...)` with the same key (test fixture: one key for the input field and the parameter init)",
)
v(
    N,
    "neuralgcm/layers_test.py",
    179,
    "JAX201",
    "TP",
    None,
    "`inputs = uniform(key)` then `model.init(key, inputs)`: inputs and init from one key (test fixture, shapes only)",
)
v(N, "neuralgcm/layers_test.py", 237, "JAX201", "TP", None, "same as :179")
v(N, "neuralgcm/towers_test.py", 128, "JAX201", "TP", None, "same as layers_test.py:179")

B = "jax-ml+bonsai"
v(
    B,
    "bonsai/models/qwen3/tests/test_outputs_qwen3.py",
    168,
    "JAX202",
    "DEBATABLE",
    None,
    "`normal(key(0), shape)` inside the loop over decoder layers: every layer gets the same input, but each layer is compared with its torch counterpart on that input independently (deliberate fixed fixture, harmless)",
)
for line in (604, 643, 665, 666):
    v(
        B,
        "bonsai/models/qwen3_vl/modeling.py",
        line,
        "JAX101",
        "FP",
        "F1",
        "`int(grid_thw[...])` in the vision model: the only jitted entry `forward` calls the model with `pixel_values`/`image_grid_thw` None, so `self.model.visual(...)` never runs under jit; the vision path is `forward_vision`, documented 'not JIT'",
    )
v(
    B,
    "bonsai/models/qwen3_vl/tests/test_outputs_qwen3vl.py",
    379,
    "JAX701",
    "TP",
    None,
    "`jnp.array(np.array(..., dtype=np.int64))` without x64 is int32 (harmless for grid sizes, but the claim is exact)",
)
v(
    B,
    "bonsai/models/sam2/model_sam2_transforms.py",
    31,
    "JAX101",
    "FP",
    "F2",
    "`labels` is scipy's `cc_label` of a mask taken from `masks_np = np.array(masks)`: a NumPy array, never a tracer (the only failing line is :106 itself)",
)
v(
    B,
    "bonsai/models/sam2/model_sam2_transforms.py",
    32,
    "JAX120",
    "FP",
    "F2",
    "`num` is the label count returned by scipy on a NumPy array: a Python int",
)
v(
    B,
    "bonsai/models/sam2/model_sam2_transforms.py",
    41,
    "JAX101",
    "FP",
    "F2",
    "same as :31 (the sprinkle pass)",
)
v(B, "bonsai/models/sam2/model_sam2_transforms.py", 42, "JAX120", "FP", "F2", "same as :32")
v(
    B,
    "bonsai/models/sam2/model_sam2_transforms.py",
    106,
    "JAX101",
    "DEBATABLE",
    None,
    "true: with `do_postprocess=True` the jitted `postprocess_masks` hits TracerArrayConversionError here, but the code catches it on purpose ('Skipping post-processing due to the error above') and the only caller (modeling.py:1696) leaves the flag False",
)
v(
    B,
    "bonsai/models/sam2/model_sam2_transforms.py",
    123,
    "JAX101",
    "TP",
    None,
    "the fallback of the `except` at :117 converts the same tracer again, uncaught: `do_postprocess=True` (a documented option) always fails under the jit",
)
v(
    B,
    "bonsai/models/sam2/modeling.py",
    1663,
    "JAX407",
    "TP",
    None,
    "`_predict` is eager and called per image by `predict_batch` (:1520): `jnp.array([[2, 3]])` is a host-to-device copy of a constant in every iteration (negligible next to the decoder, but exact)",
)
v(
    B,
    "bonsai/models/sam2/tests/SAM2_image_predictor_example.ipynb",
    6,
    "JAX209",
    "FP",
    "F3",
    "`uniform(key, (3,))` sits under `if random_color:`; `random_color` defaults to False and the only caller (`show_masks`, the loop) never passes it, so no key is consumed in that loop",
)
v(
    B,
    "bonsai/models/sam2/tests/SAM2_image_predictor_example.ipynb",
    7,
    "JAX407",
    "FP",
    "F3",
    "`jnp.array([0.6])` is in the same dead `if random_color:` branch",
)
v(
    B,
    "bonsai/models/sam2/tests/SAM2_image_predictor_example.ipynb",
    9,
    "JAX407",
    "TP",
    None,
    "the constant color `jnp.array([30/255, 144/255, 1.0, 0.6])` is converted per plotted mask in `show_masks`'s loop (plotting demo, negligible, but exact)",
)
v(
    B,
    "bonsai/models/umt5/modeling.py",
    32,
    "JAX110",
    "TP",
    None,
    "`if x.dtype == jnp.float16 and jnp.isinf(x).any():` under the jitted `forward` (:720): with a float16 config (params.py maps 'float16') the `any()` is a tracer in an `if` (TracerBoolConversionError); float32/bf16 short-circuit (checked: jit(fp16_clamp) on float16 input raises TracerBoolConversionError, on float32 runs)",
)

E = "paganpasta+eqxvision"
v(
    E,
    "docs/getting_started/Transfer_Learning.ipynb",
    20,
    "JAX202",
    "DEBATABLE",
    None,
    "`split(PRNGKey(0), n)` per batch in `accuracy()`, which runs only after `eqx.tree_inference(model, True)` (cell 17): the keys feed disabled dropout, so the repetition is harmless",
)
v(
    E,
    "eqxvision/models/classification/swin.py",
    233,
    "JAX201",
    "TP",
    None,
    "attention dropout (:227) and output dropout (:233) draw `bernoulli(key, q, shape)` from the same key: in training the two masks coincide on their common prefix (checked: bernoulli(k, .9, (4, 8)).ravel()[:16] == bernoulli(k, .9, (2, 8)).ravel())",
)

P = "pnkraemer+probdiffeq"
v(
    P,
    "examples/C4_stability.py",
    72,
    "JAX401",
    "FP",
    "F4",
    "each iteration builds a different solver (prior/constraint from the loop's tuple) and solution; `dense = partial(solver.offgrid_marginals, solution=solution)` needs its own program every time, nothing can be hoisted",
)
v(
    P,
    "examples/E1_parameter_estimation_blackjax.py",
    62,
    "JAX201",
    "TP",
    None,
    "`normal(key, (2,))` makes the data noise (:46), then `split(key)` (:62) gives the warmup key: use-then-split of one key",
)
v(
    P,
    "probdiffeq/_probdiffeq/ssm_impl_matfree.py",
    219,
    "JAX201",
    "TP",
    None,
    "`split(self.key, num=num_ensembles)` (:204) then `split(self.key, 2)[1]` (:219): checked on JAX 0.12, split(k, 5)[1] == split(k, 2)[1], so the backward conditional's key equals ensemble member 1's key",
)

v(
    "salesforce+jaxformer",
    "jaxformer/models/decoder/inter/model.py",
    175,
    "JAX201",
    "DEBATABLE",
    None,
    "`t_key` is the scan carry of the layer init and the key of two `uniform` dummy inputs (:174-175) used only for their shapes at init: real reuse, harmless",
)
