"""The entry point turns x64 on inside `main`, before it calls the code it imports.

Reduced from danmackinlay/lambda_hat lambda_hat/main.py:30-33 and :171 (v26 check set,
tuning material now): `setup_jax_environment()` turns x64 on (the config update
in its body) and is the first thing `main()` calls; the project's only entry point
(`[project.scripts]` -> `cli_main` -> `main`) then builds its targets and runs its samplers,
whose float64 requests (targets.py:134, sampling.py:151: FP x2, JAX701) are honoured. The
code of the modules it imports that runs inside functions may see x64 on
(analysis/x64.py `program_enables_x64`). The near misses are marked: `targets.OFFSET` runs
when the module is imported, before `main()` turns x64 on, and the test module turns
nothing on for itself.
"""

import jax

from simpkg import sampling, targets


def setup_jax_environment():
    jax.config.update("jax_enable_x64", True)


def main():
    setup_jax_environment()
    target = targets.build_target(3)
    print(sampling.run(target))


if __name__ == "__main__":
    main()
