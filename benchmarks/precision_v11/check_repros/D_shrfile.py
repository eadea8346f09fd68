"""Settle rows 0-4, 6 (clm-ml-jax shr_file_mod JAX101): int()/bool() on traced values under jit."""

import sys

sys.path.insert(0, "/work/precision-v11/repos/JeyuChou+clm-ml-jax/src")
from cime_src_share_util import shr_file_mod as a  # noqa: E402
from clm_share import shr_file_mod as b  # noqa: E402

for name, f, args, kw in [
    (
        "cime get_unit(unit=10)",
        a.shr_file_get_unit_jit,
        (a.create_initial_file_unit_state(),),
        {"unit": 10},
    ),
    ("cime get_unit()", a.shr_file_get_unit_jit, (a.create_initial_file_unit_state(),), {}),
    ("cime free_unit", a.shr_file_free_unit_jit, (a.create_initial_file_unit_state(), 10), {}),
    (
        "clm_share free_unit",
        b.shr_file_free_unit_jit,
        (b.create_initial_file_unit_state(),),
        {"unit": 10},
    ),
]:
    try:
        f(*args, **kw)
        print(name, "OK")
    except Exception as e:  # noqa: BLE001
        print(name, type(e).__name__, str(e).splitlines()[0][:150])
