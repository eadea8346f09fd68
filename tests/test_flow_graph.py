"""The flow graph (analysis/flow/graph.py): reaching definitions, bound-on-every-path and
may-run-after, on small functions whose answer is written down."""

from __future__ import annotations

import ast
import textwrap

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.flow.graph import DefKind, FlowGraphs


def _facts(src: str) -> tuple[ModuleFacts, ast.Module]:
    tree = ast.parse(textwrap.dedent(src))
    return ModuleFacts(tree), tree


def _load(tree: ast.AST, name: str, line: int) -> ast.Name:
    found = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Name)
        and n.id == name
        and isinstance(n.ctx, ast.Load)
        and n.lineno == line
    ]
    assert len(found) == 1, found
    return found[0]


def reach(src: str, name: str, line: int) -> set[str] | None:
    """What reaches the load of `name` on `line` (lines of the dedented source, from 1):
    'unbound', 'param', or the line of each binding ('5', 'del 5', 'aug 5')."""
    facts, tree = _facts(src)
    defs = facts.flow.reaching(_load(tree, name, line))
    if defs is None:
        return None
    out = set()
    for d in defs:
        if d.kind is DefKind.UNBOUND:
            out.add("unbound")
        elif d.kind is DefKind.PARAM:
            out.add("param")
        else:
            prefix = {DefKind.DELETE: "del ", DefKind.AUGMENT: "aug "}.get(d.kind, "")
            out.add(f"{prefix}{d.node.lineno}")  # type: ignore[union-attr]
    return out


def test_if_else_joins_both_arms():
    src = """\
    def f(c):
        x = 1
        if c:
            x = 2
        else:
            x = 3
        return x
    """
    assert reach(src, "x", 7) == {"4", "6"}


def test_if_without_else_keeps_the_earlier_binding():
    src = """\
    def f(c):
        x = 1
        if c:
            x = 2
        return x
    """
    assert reach(src, "x", 5) == {"2", "4"}


def test_a_binding_in_the_loop_body_reaches_the_loop_head():
    src = """\
    def f(xs):
        y = 0
        for x in xs:
            use(y)
            y = x
        return y
    """
    assert reach(src, "y", 4) == {"2", "5"}
    assert reach(src, "y", 6) == {"2", "5"}  # zero steps: the first binding
    assert reach(src, "x", 5) == {"3"}


def test_a_loop_with_a_proven_step_has_no_path_that_skips_its_body():
    """`range(3)` and a literal list always take a first step (analysis/trips.py); a
    `range(n)` or a list of unknown length may take none."""
    src = """\
    def f(xs, n):
        y = 0
        for _ in range(3):
            use(y)
            y = 1
        z = 0
        for a in [xs, n]:
            z = a
        else:
            use(z)
        w = 0
        for _ in range(n):
            w = 1
        return y, z, w
    """
    assert reach(src, "y", 4) == {"2", "5"}  # the first step sees the binding before
    assert reach(src, "y", 14) == {"5"}  # no path leaves with the first binding
    assert reach(src, "z", 10) == {"8"}  # `else` runs after a step
    assert reach(src, "w", 14) == {"11", "13"}  # `range(n)` may be empty


def test_a_proven_step_that_always_breaks_never_runs_the_else():
    src = """\
    def f():
        x = 0
        for _ in range(3):
            x = 1
            break
        else:
            x = 2
        return x
    """
    assert reach(src, "x", 8) == {"4"}


def test_while_condition_sees_the_body():
    src = """\
    def f(n):
        i = 0
        while i < n:
            i = i + 1
        return i
    """
    assert reach(src, "i", 3) == {"2", "4"}
    assert reach(src, "i", 4) == {"2", "4"}


def test_break_skips_the_else_and_continue_goes_to_the_head():
    src = """\
    def f(xs, c):
        for x in xs:
            r = 1
            if c:
                break
            r = 2
            if x:
                continue
            r = 3
        else:
            r = 4
        return r
    """
    # after `break` r is the one of line 3; otherwise the `else` rebinds it
    assert reach(src, "r", 12) == {"3", "11"}


def test_while_else_runs_when_the_test_fails():
    src = """\
    def f(c):
        while c():
            v = 1
            if c:
                break
        else:
            v = 2
        return v
    """
    assert reach(src, "v", 8) == {"3", "7"}


def test_while_true_only_leaves_by_break():
    src = """\
    def f(c):
        while True:
            v = c()
            if v:
                break
        return v
    """
    assert reach(src, "v", 6) == {"3"}


def test_try_binding_may_or_may_not_reach_the_handler():
    src = """\
    def f():
        x = 0
        try:
            x = 1
            x = 2
        except ValueError:
            return x
        return x
    """
    assert reach(src, "x", 7) == {"2", "4", "5"}
    assert reach(src, "x", 8) == {"5"}


def test_finally_sees_every_path_and_the_except_name_is_deleted():
    src = """\
    def f():
        try:
            x = 1
        except Exception as e:
            x = 2
        finally:
            use(x)
        return e
    """
    assert reach(src, "x", 7) == {"unbound", "3", "5"}
    # one copy of `finally`: the exception path out of the handler (e still bound) is joined
    # into what goes on after it -- an over-approximation, never a missing binding
    assert reach(src, "e", 8) == {"unbound", "4", "del 4"}
    src_no_finally = """\
    def f():
        try:
            x = 1
        except Exception as e:
            x = 2
        return e
    """
    assert reach(src_no_finally, "e", 6) == {"unbound", "del 4"}


def test_return_cuts_the_path():
    src = """\
    def f(c):
        if c:
            x = 1
        else:
            return None
        return x
    """
    assert reach(src, "x", 6) == {"3"}


def test_match_cases_and_fall_through():
    src = """\
    def f(v):
        y = 0
        match v:
            case [y]:
                pass
            case {"k": z} if z:
                y = 2
        return y
    """
    # the capture on line 4 has no binding in the index; a failed guard leaves z bound
    assert reach(src, "y", 8) == {"2", "4", "7"}
    src_wild = """\
    def f(v):
        match v:
            case 1:
                y = 1
            case _:
                y = 2
        return y
    """
    assert reach(src_wild, "y", 7) == {"4", "6"}


def test_del_and_augmented_assignment():
    src = """\
    def f():
        x = 1
        x += 2
        use(x)
        del x
        return x
    """
    assert reach(src, "x", 4) == {"aug 3"}
    assert reach(src, "x", 6) == {"del 5"}


def test_walrus_binds_and_may_not_run_in_a_branch_of_an_expression():
    src = """\
    def f(c, g):
        y = 0
        if (n := g()) > 0:
            pass
        ok = c and (y := 1)
        return n, y
    """
    assert reach(src, "n", 6) == {"3"}
    assert reach(src, "y", 6) == {"2", "5"}


def test_value_is_read_before_the_target_binds():
    src = """\
    def f(x):
        x = x + 1
        for x in x:
            pass
    """
    assert reach(src, "x", 2) == {"param"}
    assert reach(src, "x", 3) == {"2"}


def test_comprehension_variables_stay_in_the_comprehension():
    src = """\
    def f(xs):
        x = 0
        ys = [x for x in xs]
        return x
    """
    facts, tree = _facts(src)
    inner = _load(tree, "x", 3)
    (d,) = facts.flow.reaching(inner)
    assert isinstance(d.node, ast.comprehension)
    assert reach(src, "x", 4) == {"2"}


def test_nested_functions_have_their_own_graph():
    src = """\
    def outer():
        x = 1
        def inner():
            return x
        y = 2
        def other():
            y = 3
            return y
        return inner, y
    """
    facts, tree = _facts(src)
    assert reach(src, "x", 4) is None  # free in `inner`: not tracked by its graph
    assert reach(src, "y", 8) == {"7"}
    assert reach(src, "y", 9) == {"5"}  # `other`'s `y` is its own
    graphs = facts.flow
    binding = graphs.reaching_binding(_load(tree, "x", 4))
    assert binding is not None and binding.node.lineno == 2  # what `inner` sees when defined
    fn = tree.body[0]
    assert graphs.graph(fn.body[1]) is not graphs.graph(fn)


def test_dead_code_gets_the_last_state_but_no_path():
    src = """\
    def f():
        x = 1
        return x
        x = 2
        use(x)
    """
    facts, tree = _facts(src)
    fn = tree.body[0]
    assert reach(src, "x", 5) == {"4"}
    assert not facts.flow.graph(fn).may_run_after(fn.body[1], fn.body[2])


def test_bound_on_every_path_and_may_run_after():
    src = """\
    def f(xs, c):
        if c:
            a = 1
        b = 2
        for x in xs:
            d = x
        t = 0
    """
    facts, tree = _facts(src)
    fn = tree.body[0]
    g: FlowGraphs = facts.flow
    end = fn.body[-1]
    assert g.bound_at("b", end)
    assert g.bound_at("xs", end)
    assert not g.bound_at("a", end)  # only in one branch
    assert not g.bound_at("d", end)  # zero steps
    assert not g.bound_at("x", end)
    loop = fn.body[2]
    body = loop.body[0]
    assert g.may_run_after(body, body)  # the next step of the loop
    assert g.may_run_after(fn.body[0], end)
    assert not g.may_run_after(end, fn.body[0])


def test_globals_and_names_written_from_elsewhere_are_unknown():
    src = """\
    x = 1
    def f():
        global x
        x = 2
        return x
    def g():
        return x
    use(x)
    """
    assert reach(src, "x", 5) is None
    assert reach(src, "x", 8) is None  # `f` may have rebound it
    facts, tree = _facts(src)
    assert facts.flow.reaching_binding(_load(tree, "x", 7)) is None


def test_decorators_and_defaults_run_in_the_enclosing_scope():
    src = """\
    def f():
        d = 1
        def g(a=d):
            d = 2
            return a
        return g
    """
    assert reach(src, "d", 3) == {"2"}


def test_a_graph_is_built_only_when_asked():
    facts, tree = _facts("def f():\n    return 1\ndef g():\n    x = 1\n    return x\n")
    g = facts.flow
    assert facts.index.flow_graphs is g
    g.reaching(_load(tree, "x", 5))
    assert set(g._graphs) == {tree.body[1]}


def test_read_before_in_a_loop():
    src = """\
    def f(xs, c):
        for x in xs:
            use(a)
            a = g()
        for x in xs:
            b = g()
            use(b)
        for x in xs:
            if c:
                d = g()
            use(d)
        for x in xs:
            k = g()
            h = lambda: k
    """
    facts, tree = _facts(src)
    fn = tree.body[0]
    g = facts.flow
    first, second, third, fourth = fn.body
    assert g.read_before(first, "a", first.body[1])
    assert not g.read_before(second, "b", second.body[0])
    assert g.read_before(third, "d", third.body[0].body[0])  # the step that skips it
    assert not g.read_before(fourth, "k", fourth.body[0])  # the lambda is made after it


def always(src: str, name: str, line: int) -> bool:
    """`FlowGraph.always_evaluated` of the load of `name` on `line`."""
    facts, tree = _facts(src)
    use = _load(tree, name, line)
    return facts.flow.graph(facts.flow.owner(use)).always_evaluated(use)


def test_always_evaluated_straight_line_and_after_a_raise_only_branch():
    src = """
    def f(k, c):
        if c:
            raise ValueError(c)
        y = g(k)
        return y
    """
    assert always(src, "g", 5)
    assert always(src, "y", 6)


def test_not_always_evaluated_in_a_branch_a_loop_or_after_an_early_return():
    src = """
    def f(k, c, xs):
        if c:
            g(k)
        for x in xs:
            h(k)
        if c:
            return 0
        m(k)
    """
    assert not always(src, "g", 4)
    assert not always(src, "h", 6)
    assert not always(src, "m", 9)


def test_not_always_evaluated_in_a_conditional_part_of_an_expression():
    src = """
    def f(k, c, xs):
        a = g(k) if c else 0
        b = c and h(k)
        d = [m(k) for _ in xs]
        return u(k), a, b, d
    """
    assert always(src, "c", 3)
    assert not always(src, "g", 3)
    assert not always(src, "h", 4)
    assert not always(src, "m", 5)
    assert always(src, "xs", 5)  # the first iterable runs in the function
    assert always(src, "u", 6)


def test_always_evaluated_before_the_break_of_while_true_but_not_in_a_handler():
    src = """
    def f(k):
        while True:
            g(k)
            break
        try:
            h(k)
        except ValueError:
            m(k)
    """
    assert always(src, "g", 4)  # `while True` only leaves by `break`, after g
    assert not always(src, "h", 7)  # the handler may start before the body's first step
    assert not always(src, "m", 9)


def test_dead_code_is_not_always_evaluated():
    src = """
    def f(k):
        return 1
        g(k)
    """
    assert not always(src, "g", 4)


def test_binding_read_follows_the_use_def_map_not_the_source_order():
    src = """
    def f(ps, g, p0):
        for p in ps:
            p -= g
            p = p0
            use(p)
        for q in ps:
            if q is None:
                use(q)
            q -= g
        for r in ps:
            r -= g
        return r
    """
    facts, tree = _facts(src)
    fn = tree.body[0]
    first, second, third = fn.body[0], fn.body[1], fn.body[2]
    assert not facts.flow.binding_read("p", first.body[0])  # overwritten before any read
    assert not facts.flow.binding_read("q", second.body[1])  # the next step rebinds q first
    assert facts.flow.binding_read("r", third.body[0])  # the last value is returned


def test_jax505_update_overwritten_before_any_read_is_lost():
    from jaxlint.core.config import Settings
    from jaxlint.engine import LintOptions, lint_text

    src = textwrap.dedent(
        """
        import jax.numpy as jnp

        def sgd(g, p0):
            params = [jnp.ones(3), jnp.zeros(3)]
            for p in params:
                p -= 0.1 * g
                p = p0
                print(p)
            return params
        """
    )
    diags = lint_text(src, "t.py", LintOptions(settings=Settings(preview=True)))
    assert [d.line for d in diags if d.code == "JAX505"] == [7]


def _stmt_at(tree: ast.AST, line: int) -> ast.stmt:
    found = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno == line]
    return found[-1]  # the innermost statement starting on that line


def test_may_run_before_first_ignores_later_steps():
    src = """\
    def f(xs):
        for x in xs:
            t = g(x)
            warm = h(x)
        return t
    """
    facts, tree = _facts(src)
    g = facts.flow.graph(tree.body[0])
    timed, warm = _stmt_at(tree, 3), _stmt_at(tree, 4)
    assert facts.flow.may_run_after(warm, timed)  # the next step
    assert not g.may_run_before_first(warm, timed)  # not before the first timed call
    assert g.may_run_before_first(timed, warm)


def test_may_run_first_in_one_statement_and_across_branches():
    src = """\
    def f(c, x):
        y = f2(x) + g(x)
        if c:
            h(x)
        else:
            g(x)
    """
    facts, tree = _facts(src)
    calls = {
        (n.func.id, n.lineno): n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    flow = facts.flow
    assert flow.may_run_first(calls["f2", 2], calls["g", 2])  # left to right
    assert not flow.may_run_first(calls["g", 2], calls["f2", 2])
    assert not flow.may_run_first(calls["h", 4], calls["g", 6])  # other arm
    assert flow.may_run_first(calls["g", 2], calls["g", 6])


def test_runs_between_needs_a_run_before_and_one_after():
    src = """\
    x = 1
    use()
    x = 2
    later()
    for _ in range(3):
        loop_use()
        x = 3
    """
    facts, tree = _facts(src)
    flow = facts.flow
    s = {line: _stmt_at(tree, line) for line in (2, 3, 4, 6, 7)}
    assert flow.runs_between(s[3], [s[2]], [s[4]])
    assert not flow.runs_between(s[3], [s[4]], [s[4]])  # nothing ran before the rebinding
    assert not flow.runs_between(s[3], [s[2]], [s[2]])  # nothing runs again after it
    assert flow.runs_between(s[7], [s[6]], [s[6]])  # the loop runs it again
    assert flow.statement_in(tree.body[4].body[0].value) is s[6]


def test_certain_binding_single_and_several():
    src = """\
    def f(p, c):
        a = 1
        b = 1
        if c:
            b = 2
        for _ in range(3):
            use(a, b, p)
            q = 1
        use(q)
    """
    facts, tree = _facts(src)
    index, flow = facts.index, facts.flow

    def certain(name: str, line: int):
        load = _load(tree, name, line)
        found = index.lookup(name, index.scope_of(load))
        b = flow.certain_binding(load, found)
        return None if b is None else (b.kind, getattr(b.node, "lineno", None))

    assert certain("a", 7) == ("assign", 2)
    assert certain("p", 7)[0] == "param"  # type: ignore[index]
    assert certain("b", 7) is None  # two bindings reach: the use-def map says so
    assert certain("q", 9) is None  # bound only in the loop, which may run zero times


def test_a_range_over_a_negated_name_is_not_a_literal_count():
    """`range(-n, n + 1)` (simsopt): the count is unknown; asking it must not fail."""
    src = """\
    def f(n):
        y = 0
        for _ in range(-n, n + 1):
            y = 1
        return y
    """
    assert reach(src, "y", 5) == {"2", "4"}


def _reads_after(src: str, name: str, line: int) -> list[str]:
    """The reads `FlowGraph.reads_after` gives for the load of `name` on `line`: the line of
    each load, 'aug N' for an `x += ...`."""
    facts, tree = _facts(src)
    out = []
    for r in facts.flow.reads_after(_load(tree, name, line)):
        if isinstance(r, ast.Name):
            out.append(str(r.lineno))
        else:
            out.append(f"aug {r.node.lineno}")  # type: ignore[union-attr]
    return sorted(out)


def test_reads_after_a_load_stop_at_a_rebinding_and_follow_loops():
    src = """\
    def f(x, xs, c):
        y = g(x)
        z = x + 1
        if c:
            x = y
        w = x
        for b in xs:
            out = g(w, b)
        x += 1
        v = g(x)
        v = g(v)
        return v
    """
    assert _reads_after(src, "x", 2) == ["3", "6", "aug 9"]  # `x = y` kills one path only
    assert _reads_after(src, "w", 8) == ["8"]  # the next step of the loop reads it again
    assert _reads_after(src, "x", 10) == []
    assert _reads_after(src, "v", 11) == []  # `v = g(v)`: rebound by its own statement
    assert _reads_after(src, "v", 12) == []
