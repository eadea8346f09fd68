"""JAX2xx: PRNG key discipline, one rule per module.

The key flow these rules report (reuse, collisions, constant and fixed seeds, keys broadcast by
`vmap`, module-level keys) is a shared fact computed once per module in `jaxlint.analysis`;
this package re-exports the rule classes so the registry, which scans the family's namespace,
finds them, and `from jaxlint.rules.prng import PrngKeyReuse` keeps working.
"""

from __future__ import annotations

from jaxlint.rules.prng.constant_seed_in_loop import ConstantSeedInLoop
from jaxlint.rules.prng.fixed_seed_in_repeated_function import FixedSeedInRepeatedFunction
from jaxlint.rules.prng.host_rng_in_traced import (
    GENERATOR_FACTORIES,
    HOST_RNG_PREFIXES,
    HostRngInTraced,
)
from jaxlint.rules.prng.key_unmapped_in_vmap import KeyUnmappedInVmap
from jaxlint.rules.prng.legacy_prng_key import LegacyPrngKey
from jaxlint.rules.prng.module_level_key_consumed import ModuleLevelKeyConsumed
from jaxlint.rules.prng.prng_key_reuse import PrngKeyReuse
from jaxlint.rules.prng.raw_key_arithmetic import RawKeyArithmetic
from jaxlint.rules.prng.split_foldin_collision import SplitFoldinCollision

__all__ = [
    "GENERATOR_FACTORIES",
    "HOST_RNG_PREFIXES",
    "ConstantSeedInLoop",
    "FixedSeedInRepeatedFunction",
    "HostRngInTraced",
    "KeyUnmappedInVmap",
    "LegacyPrngKey",
    "ModuleLevelKeyConsumed",
    "PrngKeyReuse",
    "RawKeyArithmetic",
    "SplitFoldinCollision",
]
