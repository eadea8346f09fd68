"""The rule contract: a small class with its docs, examples, fix safety and verifier kind."""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, ClassVar

from jaxlint.analysis.jax_api import FILTERING, JIT_TRACING_EVERY_ARGUMENT
from jaxlint.core.codes import CODES
from jaxlint.core.diagnostic import (
    DISPLAY_ONLY,
    Diagnostic,
    Edit,
    Fix,
    FixAvailability,
    Safety,
    Span,
)
from jaxlint.edits.view import ModuleView

if TYPE_CHECKING:
    from jaxlint.analysis import TracedFunction


@dataclass(frozen=True)
class Examples:
    """Snippets the generated tests run: `# error: CODE` marks each line that must be flagged."""

    invalid: tuple[str, ...] = ()
    valid: tuple[str, ...] = ()
    fixes: tuple[tuple[str, str], ...] = ()  # (before, after) with safe fixes
    unsafe_fixes: tuple[tuple[str, str], ...] = ()  # (before, after) with --unsafe-fixes


def last_components(names: Iterable[str]) -> tuple[str, ...]:
    """Prefilter words of a name table whose names end in the word a file must contain
    (`jax.pmap` -> `pmap`; `numpy.random.` -> `random`), sorted and without repeats."""
    return tuple(sorted({n.rstrip(".").rsplit(".", 1)[-1] for n in names}))


def roots(names: Iterable[str]) -> tuple[str, ...]:
    """Prefilter words of a name table by its root modules (`time.perf_counter` -> `time`)."""
    return tuple(sorted({n.split(".", 1)[0] for n in names}))


# spellings of verifier kinds in `verifier` strings -> the kind's name
KIND_ALIASES = {"numerics": "numeric", "prng": "draws", "retrace": "retrace-cmp"}


def verifier_kinds(verifier: str | None) -> tuple[str, ...]:
    """The kinds a `verifier` string names (`"compiles + bench"` -> `("compiles", "bench")`)."""
    kinds = []
    for part in re.split(r"[+,]", verifier or ""):
        part = part.strip().lower()
        part = KIND_ALIASES.get(part, part)
        if part:
            kinds.append(part)
    return tuple(kinds)


# the values `Verify.observe_confirms` and `Verify.compare` may take (None: the default)
OBSERVE_CONFIRMS = (None, "traced-input", "uint32-key")
COMPARES = (None, "pmap", "stale-globals", "check-vma-off")


@dataclass(frozen=True)
class Verify:
    """How `jaxlint verify` confirms this rule's findings at runtime, as data.

    The planner (`verify.plan`) copies it into each job, so the sandboxed child
    reads it from the job and never imports a rule. Empty `kinds` means: the kinds of the rule's
    `verifier` string (what docs/rules.md shows).
    """

    kinds: tuple[str, ...] = ()  # verifier kinds, the first decides the verdict
    # `trace`: exception class names (anywhere in the MRO) or message fragments that match the
    # rule; empty: any exception raised at the flagged line does
    expect: tuple[str, ...] = ()
    # `trace`: a silent sharp bit: the JAX function (module, attribute) to wrap and record
    observe: tuple[str, str] | None = None
    # `trace`: what a call recorded by `observe` at the flagged line must show to confirm:
    # "traced-input" (it got a tracer: a host function that is a no-op under trace),
    # "uint32-key" (it made a legacy uint32 key)
    observe_confirms: str | None = None
    # `trace`: run with `jax.random.PRNGKey` returning typed keys (raw arithmetic then raises)
    typed_keys: bool = False
    # `numeric`: the bug is a wrong number, so the fix is meant to change the result
    changes_result: bool = False
    # `numeric`: what the original is compared with instead of its fix: "pmap" (the pmapped
    # function vs its shard_map migration, on simulated devices), "stale-globals" (the jitted
    # function after its globals changed vs the same function un-jitted), "check-vma-off" (the
    # shard_mapped program vs itself with check_vma=False, pmap semantics)
    compare: str | None = None
    # `draws`: the finding is about a function that runs more than once: call it twice
    runs_twice: bool = False
    # `draws`: the finding is a key vmap does not map: run the entry as written (its vmap
    # included) and confirm when a random function inside the vmap got one concrete key
    unmapped_key: bool = False
    # `compiles` / `bench`: the finding is about compilation time counted as run time
    compile_time: bool = False
    # `lower`: compare compiling the call with and without donating its arguments
    donation: bool = False
    # the planner's rule-specific hint builder (`verify_plan.RULE_HINTS`), if any
    hint: str | None = None

    def __post_init__(self) -> None:
        # the runtime falls back to its default behaviour on a value it does not know, so a
        # misspelt option would silently verify the wrong thing: refuse it when the rule loads
        if self.observe_confirms not in OBSERVE_CONFIRMS:
            raise ValueError(f"Verify.observe_confirms: unknown {self.observe_confirms!r}")
        if self.compare not in COMPARES:
            raise ValueError(f"Verify.compare: unknown {self.compare!r}")

    def job_fields(self) -> dict[str, object]:
        """What the child needs beyond the kinds (`jobs.VerifySpec`): the non-default fields."""
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name not in ("kinds", "hint") and value:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass
class Context(ModuleView):
    """What a rule sees while the engine walks a module once: the module view (source, facts,
    edit helpers) plus the walk state, which the engine changes through `enter_function` and
    `leave_function`."""

    function_node: ast.AST | None = None
    _function_cached: object = False  # False: not computed yet for function_node
    functions: list[ast.AST] = field(default_factory=list)
    _saved: list[tuple[ast.AST | None, object]] = field(default_factory=list, repr=False)

    def enter_function(self, node: ast.AST) -> None:
        """The walk enters a function (def or lambda): it becomes the enclosing one."""
        self._saved.append((self.function_node, self._function_cached))
        self.function_node, self._function_cached = node, False
        self.functions.append(node)

    def leave_function(self) -> None:
        """The walk leaves the innermost function: the one around it is enclosing again."""
        self.function_node, self._function_cached = self._saved.pop()
        self.functions.pop()

    @property
    def function(self) -> TracedFunction | None:
        """Facts of the innermost enclosing function when JAX traces it (computed lazily)."""
        if self._function_cached is False:
            self._function_cached = self.facts.function_facts(self.function_node)
        return self._function_cached  # type: ignore[return-value]

    @property
    def in_jit(self) -> bool:
        # `function`, inlined: the rules ask it of most calls and subscripts
        found = self._function_cached
        if found is False:
            found = self.function
        return found is not None and found.is_jit  # type: ignore[union-attr]

    def static_advice(self) -> str:
        """How the user keeps a value out of the trace where the innermost traced function
        is: `static_argnames` for jit, `static_broadcasted_argnums` for pmap, a Python value
        under a filter transform (it keeps non-arrays static); nothing for a loop or branch
        body, vmap or grad, which have no static arguments. Starts with ", or " when there is
        advice, for messages ("use `jnp.where`{advice}")."""
        fn = self.function
        via = fn.via if fn is not None else "jax.jit"
        if via in JIT_TRACING_EVERY_ARGUMENT or via.endswith("Module.__call__"):
            return ", or mark the argument static (`static_argnames`)"
        if via == "jax.pmap":
            return ", or mark the argument static (`static_broadcasted_argnums`)"
        if via.startswith(FILTERING):
            return f", or pass a Python value (`{via}` keeps what is not an array static)"
        return ""

    def transform_name(self) -> str:
        """The transform the innermost traced function runs under, for messages: "jit" for
        jit-like ones, else its name (`jax.vmap`, `jax.lax.scan`)."""
        fn = self.function
        if fn is None or fn.via in JIT_TRACING_EVERY_ARGUMENT or fn.via.endswith("Module.__call__"):
            return "jit"  # (a Module's `__call__`: applied under one)
        return f"`{fn.via}`"

    def why_traced(self, node: ast.AST) -> str:
        """Names the traced value and why it is traced, for messages."""
        name = self.taint.traced_name(node)
        fn = self.function
        if fn is None:
            return ""
        subject = f"`{name}`" if name else "this value"
        if fn.chain:
            return f"{subject} is traced here ({fn.describe()})"
        if fn.via.endswith("Module.__call__"):  # not a transform: traced when applied under one
            lib = fn.via[: -len(".Module.__call__")]
            if name and name in fn.traced_params:
                return f"{subject} is traced when the `{lib}` Module is applied under jit (`{name}` is a required input of `{fn.name}`)"
            return f"{subject} is traced when the `{lib}` Module is applied under jit (computed from the inputs of `{fn.name}`)"
        if name and name in fn.traced_params:
            return f"{subject} is traced here because `{fn.name}` is transformed by `{fn.via}` and `{name}` is not static"
        return f"{subject} is traced here (computed from arguments of `{fn.name}`, transformed by `{fn.via}`)"


_CLOSERS = {"(": ")", "[": "]", "{": "}"}


def short_code(text: str, limit: int = 40) -> str:
    """Source text quoted in a message: one line, at most about `limit` characters; a cut
    ends with "..." and closes the brackets the kept part opened, so the quote still reads
    as code (`jax.jit(lambda p, b: loss_fn(p, b, ...))`, not `...(p, b, ...`)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    kept = text[: limit - 3]
    stack: list[str] = []
    quote = ""
    for ch in kept:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in _CLOSERS:
            stack.append(_CLOSERS[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
    return kept.rstrip() + "..." + quote + "".join(reversed(stack))


# the codes whose findings describe what code does when it runs (the tracing, PRNG, compile,
# mutation, benchmarking and dtypes families): silent in code that never runs
# (`ModuleFacts.never_runs`: an arm a constant module switch turns off, an unreachable statement)
BEHAVIOURAL_CODES = frozenset(
    c.code
    for c in CODES
    if c.family in ("tracing", "prng", "compile", "mutation", "benchmarking", "dtypes")
)


class Rule:
    """Base class; subclasses define `visit_<AstNode>(self, node, ctx)` methods."""

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    message: ClassVar[str] = ""
    # the applicability of this rule's fixes unless a fix says otherwise: "safe", "unsafe",
    # "display-only" (a suggestion shown to the user, never applied), or None (no fix)
    fix_safety: ClassVar[Safety | None] = None
    # can the rule offer a fix (ruff's FixAvailability)? Declare "always" when every finding
    # gets one; otherwise derived: "none" without `fix_safety`, else "sometimes"
    fix_availability: ClassVar[FixAvailability] = "none"
    _declared_fix_availability: ClassVar[FixAvailability | None] = None
    # the verifier kinds as docs/rules.md shows them (`"trace"`, `"compiles + bench"`)
    verifier: ClassVar[str | None] = None
    # how `jaxlint verify` confirms a finding; declare it for more than the `verifier` kinds
    verify: ClassVar[Verify] = Verify()
    _declared_verify: ClassVar[Verify] = Verify()
    default: ClassVar[bool] = True
    tier: ClassVar[int] = 1
    templates: ClassVar[tuple[str, ...]] = ()
    # The prefilter's gate (`jaxlint.prefilter`): words of which one must be in a file's text
    # before the rule can fire (or a tuple of such groups, all of which must match), derived
    # from the name table the rule matches (`last_components`, `roots`); empty: the default gate
    # (the JAX-family roots). A declared gate replaces the default one unless
    # `prefilter_with_default` (a clock read names `time`, the JAX work it times names `jax`).
    prefilter_words: ClassVar[tuple[str, ...] | tuple[tuple[str, ...], ...]] = ()
    prefilter_with_default: ClassVar[bool] = False
    severity: ClassVar[str] = "warning"
    examples: ClassVar[Examples] = Examples()
    # the finding rests on the traced-function facts: it takes their confidence (medium when
    # the function is traced through a helper call or is a Module's `__call__`)
    traced_evidence: ClassVar[bool] = False
    # the rule reads the key flow's `reuses` or `collisions` (`KeyFlow`): with none of them
    # selected, the key flow walks only what the project summary reads (`ModuleFacts.key_reuses`)
    key_reuses: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        own = vars(cls).get("fix_availability")
        if own is not None:  # declared on this class (a subclass inherits the declaration)
            cls._declared_fix_availability = own
        # otherwise derived, as Fixit derives AUTOFIX
        cls.fix_availability = cls._declared_fix_availability or (
            "none" if cls.fix_safety is None else "sometimes"
        )
        own_verify = vars(cls).get("verify")
        if own_verify is not None:  # declared on this class (a subclass inherits it)
            cls._declared_verify = own_verify
        # without kinds, `verify` takes the kinds of the (possibly inherited) `verifier`
        declared = cls._declared_verify
        if not declared.kinds:
            declared = replace(declared, kinds=verifier_kinds(cls.verifier))
        cls.verify = declared

    # Removed-API rules: no finding in a branch only an older JAX runs (`else:` of
    # `hasattr(jax, "new")`, `except ImportError:`, `if jax.__version_info__ < ...:`).
    silent_in_compat_code: ClassVar[bool] = False

    def __init__(self, ctx: Context, sink: list[Diagnostic]) -> None:
        self.ctx = ctx
        self._sink = sink

    def report(
        self,
        node: ast.AST,
        message: str | None = None,
        *,
        fix: Fix | None = None,
        span: Span | None = None,
        confidence: str | None = None,
        **fmt: str,
    ) -> None:
        if self.silent_in_compat_code and self.ctx.facts.in_old_jax_branch(node):
            return  # compatibility code for an older JAX: the old spelling is right there
        if self.code in BEHAVIOURAL_CODES and self.ctx.facts.never_runs(node):
            return  # under `if DEBUG:` with `DEBUG = False`, after `exit()`: it never happens
        text = message if message is not None else self.message.format(**fmt)
        if confidence is None:
            confidence = "high"
            if self.traced_evidence:
                fn = self.ctx.function
                if fn is not None and fn.confidence != "high":
                    confidence = fn.confidence
        self._sink.append(
            Diagnostic(
                code=self.code,
                message=text,
                path=self.ctx.path,
                span=span or self.ctx.span(node),
                name=self.name,
                fix=fix,
                severity=self.severity,  # type: ignore[arg-type]
                confidence=confidence,  # type: ignore[arg-type]
            )
        )

    def fix(self, *edits: Edit, safety: Safety | None = None, message: str = "") -> Fix:
        """A fix of `edits`; `safety` overrides the rule's `fix_safety` for this finding:
        "safe", "unsafe" or "display-only" (shown as a suggestion, never applied)."""
        return Fix(tuple(edits), safety or self.fix_safety or "unsafe", message)

    def fix_later(
        self,
        build: Callable[[], Iterable[Edit] | None],
        safety: Safety | None = None,
        message: str = "",
        *,
        certain: bool = True,
    ) -> Fix:
        """A fix whose edits `build()` computes only when asked (`--fix`, `--diff`, the JSON
        output, a quick fix), for fixes that cost more than a replacement (an import, a
        hoisted statement, a re-analysis). `certain=False`: the builder may find there is no
        fix after all (it returns None); the engine decides such fixes before counting."""
        return Fix.lazy(build, safety or self.fix_safety or "unsafe", message, certain=certain)

    def suggest(self, *edits: Edit, message: str = "") -> Fix:
        """A display-only fix: a rewrite that changes semantics (`float(x)` ->
        `x.astype(float)`), shown to the user and never applied by `--fix`/`--unsafe-fixes`."""
        return self.fix(*edits, safety=DISPLAY_ONLY, message=message)

    @classmethod
    def docs(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def summary(cls) -> str:
        return cls.docs().splitlines()[0] if cls.__doc__ else cls.name

    @classmethod
    def visitors(cls) -> dict[str, str]:
        """ast node class name -> method name, for the engine's dispatch table (computed once
        per class: the engine asks for every rule on every file)."""
        cached = vars(cls).get("_jl_visitors")
        if cached is None:
            cached = cls._find_visitors()
            cls._jl_visitors = cached  # type: ignore[attr-defined]
        return dict(cached)

    @classmethod
    def _find_visitors(cls) -> dict[str, str]:
        return {
            attr[len("visit_") :]: attr
            for attr in dir(cls)
            if attr.startswith("visit_") and callable(getattr(cls, attr))
        } | {
            "leave:" + attr[len("leave_") :]: attr
            for attr in dir(cls)
            if attr.startswith("leave_") and callable(getattr(cls, attr))
        }

    def unneeded_visits(self) -> frozenset[str]:
        """The node class names (`"Name"`) whose `visit_` this rule no longer needs in this
        module, asked once after the `Module` node's visits: the engine stops calling them
        (a rule that learns from the module's imports that no name can be one of its own
        saves a call per node; the answer must change no finding)."""
        return frozenset()

    def attribute_filter(self) -> frozenset[str] | None:
        """The `attr` values of the `Attribute` nodes for which `visit_Attribute` can do
        anything (None: every one), asked once per module before the walk: the engine calls
        it for those only (a rule that returns at once for other attributes saves a call per
        attribute of the module; the answer must change no finding)."""
        return None

    def callee_filter(self) -> frozenset[str] | None:
        """The qualified names of the callees (`ModuleIndex.qualname(node.func)`) of the
        `Call` nodes for which `visit_Call` can do anything (None: every call), asked once
        per module before the walk: the engine calls it for those only (a rule that returns
        at once for other callees saves a call per call of the module; the answer must
        change no finding)."""
        return None

    def finish(self) -> None:
        """Called once after the walk, for rules that decide at the end of the module."""
