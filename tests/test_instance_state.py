"""analysis/instance_state: which attributes change after construction, which a method reads.

Why: JAX409 (a method jitted with `self` static) is right only when the two meet; each case
below is a way the answer could silently widen (missed stale results) or narrow (false
positives like fp24)."""

from __future__ import annotations

import ast
import textwrap

from jaxlint.analysis.instance_state import attributes_set_after_init, self_attributes_read


def _cls(src: str) -> ast.ClassDef:
    tree = ast.parse(textwrap.dedent(src))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef))


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef:
    return next(s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == name)


def test_private_helper_called_only_from_init_is_construction():
    cls = _cls(
        """
        class P:
            def __init__(self, a):
                self._build(a)
            def _build(self, a):
                self.table = a
                self._more()
            def _more(self):
                self.extra = 1
        """
    )
    assert attributes_set_after_init(cls) == set()


def test_public_or_reused_helper_can_run_later():
    cls = _cls(
        """
        class P:
            def __init__(self, a):
                self._build(a)
                self.reset()
            def _build(self, a):
                self.table = a
            def reset(self):
                self.count = 0
            def refresh(self, a):
                self._build(a)
            def hook(self):
                return self._cb
            def _cb(self):
                self.flag = True
        """
    )
    # reset is public; _build is also called by refresh; _cb is handed out as a callback
    assert attributes_set_after_init(cls) == {"count", "table", "flag"}


def test_augmented_assignment_and_tuple_targets_count():
    cls = _cls(
        """
        class T:
            def train(self, b):
                self.steps += 1
                self.state, self.opt = b
        """
    )
    assert attributes_set_after_init(cls) == {"steps", "state", "opt"}


def test_reads_follow_own_methods_and_properties():
    cls = _cls(
        """
        class S:
            @property
            def lr(self):
                return self._lr
            def scale(self):
                return self.factor
            def step(self, p):
                return p * self.lr * self.scale() + self.policy.apply(p)
        """
    )
    assert self_attributes_read(cls, _method(cls, "step")) == {"_lr", "factor", "policy"}


def test_escaping_self_means_unknown():
    cls = _cls(
        """
        class S:
            def step(self, p):
                return helper(self, p)
            def step2(self, p):
                return getattr(self, "w") * p
            def step3(self, p):
                return self.__dict__["w"] * p
        """
    )
    for name in ("step", "step2", "step3"):
        assert self_attributes_read(cls, _method(cls, name)) is None
