"""FP root causes of the tuning half: which fact the analysis got wrong, and the reproduction."""

ROOTS = {
    "F1": {
        "title": "A flax nnx Module's `__call__` reached only through a two-level attribute call (`self.model.visual(...)`) keeps the default seed 'required parameters are traced' (medium), although no jit reaches it with arrays",
        "fact": "Facts missed: (a) the call `self.model.visual(pixels, grid_thw)` is not resolved (constructor attribute of a constructor attribute: `self.model = Inner()`, `Inner.__init__` sets `self.visual = Vision()`); with a one-level `self.visual(...)` the caller is resolved and the finding disappears (checked); (b) the only jitted entry (`forward`) calls the outer model with the vision arguments left at their `None` default, so the branch `if pixel_values is not None and image_grid_thw is not None` is dead under the jit; (c) the vision path runs in `forward_vision`, a plain function. The seed itself (transforms.py `_module_methods`: every required parameter of a Module `__call__` is traced, medium) is the unproven fact: a Module `__call__` is traced only where a jit reaches it, with what that caller passes.",
        "repro": "v01_nnx_call_branch_dead_under_jit.py",
    },
    "F2": {
        "title": "The result of `np.array(x)` of a traced value is taken as traced, and the taint flows into a host helper and through scipy",
        "fact": "`masks_np = np.array(masks)` (itself a true JAX101 when it runs under jit) either raises or returns a host `numpy.ndarray`; it never yields a tracer. Whatever is computed from it (`masks_np[b]`, `scipy.ndimage.label(...)`, its label count `num`) is NumPy / Python. The analysis keeps `masks_np` traced, so the helper `_postprocess_mask_numpy` is seeded traced at `mask` ('traced via postprocess_masks() -> _postprocess_mask_numpy()') and every NumPy call on its locals is reported. In bonsai the `jnp.zeros_like` fix is offered as unsafe; in the reduction v02b (`m = np.array(tracer)[0] + 1; np.zeros_like(m)`) it is a medium-confidence finding with a SAFE `[*]` fix, i.e. a safe fix resting on an unproven kind (issue 23's 'Done when' forbids that). Fact: NumPy conversions (`np.array`, `np.asarray`, `np.*` results) are host values (a kind: host array), not traced.",
        "repro": "v02_numpy_copy_of_traced_arg.py",
        "more": ["v02b_numpy_copy_safe_fix.py"],
    },
    "F3": {
        "title": "A key use / list conversion under `if flag:` where `flag` defaults to False and no caller passes it (the defaults no caller overrides)",
        "fact": "`show_mask(mask, ax, *, random_color=False, ...)` draws `uniform(key, ...)` and converts `jnp.array([0.6])` only under `if random_color:`; its only call (`show_mask(mask, plt.gca(), borders=borders)` in the loop of `show_masks`) leaves the flag at its default, so neither runs in that loop. The JAX209 and JAX407 call-graph facts ('called in every step of the loop on line 43') ignore the branch condition; the parameter's value at every call site is a proven constant (default False, keyword-only, not passed), so the branch is dead for the loop. (The sibling `else` line :9, converting the constant color per mask, is a TP.)",
        "repro": "v03_branch_under_default_false.py",
    },
    "F4": {
        "title": "JAX401 on `jax.jit(jax.vmap(partial(solver.method, solution=...)))` in a loop whose every iteration builds a new solver and solution",
        "fact": "The rule's claim 'traces and compiles every time' is true, but its advice 'create it once outside the loop' cannot be followed: the jitted callable closes over `solver` (built from the loop's tuple: a different prior/constraint, so a different program) and `solution` (new every iteration). The v3 fix for 'each iteration needs its own program' (repro r12) covers `static_argnums` solvers and lambdas over the loop variable, not a `functools.partial` of a bound method of a per-iteration object. Fact: a jitted callable built from objects that are themselves rebuilt from the loop variable needs its own program per iteration.",
        "repro": "v04_jax401_partial_of_per_iteration_solver.py",
    },
}
