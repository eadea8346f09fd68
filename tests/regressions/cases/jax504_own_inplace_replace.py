"""A class's own `replace` that changes its object and returns nothing is no functional
update: its None result is not a dropped new value (`CallGraph.in_place_method`). The call
graph resolves `self._ensemble` to the class through the parameter annotation it was
assigned from (`CallGraph.instance_class`: `self.attr = param`, `param: Cls`).

From the v38 check set (tuning material, read in context): shockwaveHe/Robot-Trains-Robot
`toddlerbot/finetuning/abppo.py:430` and `:436`: `self._abppo.replace(index=index)` on a
learner whose `replace(self, index: list) -> None` swaps policies in place (JAX504 x2, read
FP). The twin: a flax struct dataclass's `replace`, whose result is dropped, stays reported.
"""

import flax.struct


class Ensemble:
    def __init__(self, n):
        self.policies = list(range(n))
        self.old = list(range(n))

    def replace(self, index: list) -> None:
        for i in index:
            self.old[i] = self.policies[i]


@flax.struct.dataclass
class State:
    step: int


class Learner:
    def __init__(self, ensemble: Ensemble, state: State):
        self._ensemble = ensemble
        self._state = state

    def update(self, index):
        self._ensemble.replace(index=index)
        self._state.replace(step=self._state.step + 1)  # error: JAX504
        return self._state
