"""Code actions: a quick fix per fixable finding under the cursor, "Disable JAX### on this
line", and `source.fixAll.jaxlint` (every safe fix as one WorkspaceEdit).

Like ruff, a display-only suggestion is shown in the hover and never offered as a quick fix, and
an unsafe fix says so in its title. Fix-all is computed lazily (`codeAction/resolve`) when the
client supports resolving the edit, since it re-runs the fix loop over the whole document.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from lsprotocol import types

from jaxlint.core.diagnostic import Diagnostic, Fix
from jaxlint.core.suppressions import token_ranges
from jaxlint.integrations.lsp.noqa import noqa_edit
from jaxlint.integrations.lsp.positions import diff_edits, overlaps, text_edits, to_lsp

if TYPE_CHECKING:
    from jaxlint.integrations.lsp.server import JaxlintServer, LintResult

FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.jaxlint"  # source.fixAll.jaxlint
FIX_ALL_TITLE = "Fix all safe jaxlint findings"
CODE_ACTION_OPTIONS = types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND],
    resolve_provider=True,
)


def _wanted(kind: str, only: list[str] | None) -> bool:
    return not only or any(kind == o or kind.startswith(o + ".") for o in only)


async def code_action(
    ls: JaxlintServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    """`textDocument/codeAction`: quick fixes and noqa actions for the findings in the range,
    plus fix-all when any finding has a safe fix."""
    uri = params.text_document.uri
    result = await ls.lint(uri)
    if result is None:
        return None
    only = list(params.context.only or []) or None
    index = result.index
    start = index.from_client(params.range.start)
    end = index.from_client(params.range.end)
    here = [d for d in result.diagnostics if d.code != "JAX000" and overlaps(d, start, end)]
    if here and result.incremental:  # quick fixes: built on the whole module
        result = await ls.exact(result)
        here = [d for d in result.diagnostics if d.code != "JAX000" and overlaps(d, start, end)]
    actions: list[types.CodeAction] = []
    if _wanted(types.CodeActionKind.QuickFix, only):
        # the fixes under the cursor are decided and built here, in the lint thread (the
        # diagnostics left them lazy): a JAX201 fix re-analyses the module, once per version
        fixes = await asyncio.get_running_loop().run_in_executor(ls.lint_pool, _built, here)
        actions += _quick_fixes(ls, uri, result, here, fixes)
        actions += _disable_actions(ls, uri, result, here)
    # fix-all is offered on what is known without building (every safe fix is certain)
    fixable = any(
        d.fix is not None and d.fix.safety == "safe" and d.fix.certain for d in result.diagnostics
    )
    if fixable and _wanted(FIX_ALL_KIND, only):
        action = types.CodeAction(
            title=FIX_ALL_TITLE,
            kind=FIX_ALL_KIND,
            data={"uri": uri, "version": result.version},
        )
        if not ls.supports_resolve("edit"):
            action = await resolve_fix_all(ls, action)
            if action.edit is None:
                action = None
        if action is not None:
            actions.append(action)
    return actions


def _built(diags: list[Diagnostic]) -> list[Fix | None]:
    """Each finding's fix when it exists and can be applied (built), else None."""
    out: list[Fix | None] = []
    for d in diags:
        fix = d.fix
        if fix is None or fix.display_only or not fix.available:
            out.append(None)  # like ruff: a display-only suggestion is shown, never applied
            continue
        fix.edits  # noqa: B018 - builds them
        out.append(fix)
    return out


def _quick_fixes(
    ls: JaxlintServer,
    uri: str,
    result: LintResult,
    here: list[Diagnostic],
    fixes: list[Fix | None],
) -> list[types.CodeAction]:
    """One action per applicable fix (unsafe ones say so and are not preferred)."""
    index = result.index
    actions = []
    for d, fix in zip(here, fixes):
        if fix is None:
            continue
        unsafe = fix.safety != "safe"
        what = fix.message or f"Fix {d.code}"
        actions.append(
            types.CodeAction(
                title=f"{d.code}: {what}" + (" (unsafe)" if unsafe else ""),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[to_lsp(d, index)],
                is_preferred=not unsafe,
                edit=ls.workspace_edit(uri, result.version, text_edits(fix.edits, index)),
            )
        )
    return actions


def _disable_actions(
    ls: JaxlintServer, uri: str, result: LintResult, here: list[Diagnostic]
) -> list[types.CodeAction]:
    """A "Disable CODE on this line" action per (line, code): a `# noqa` where flake8 reads it."""
    index = result.index
    actions = []
    seen: set[tuple[int, str]] = set()
    for d in here:
        if (d.line, d.code) in seen:
            continue
        seen.add((d.line, d.code))
        line0 = d.line - 1
        if line0 >= len(index.lines):
            continue
        target = d.line
        edit = noqa_edit(index.lines[line0], d.line, d.code, result.ends)
        if edit is None:
            # the line ends inside a string or after a backslash: flake8 (and jaxlint)
            # read the noqa at the end of the token range, as `--add-noqa` writes it
            target = token_ranges(result.text)[0].get(d.line, (0, 0))[1]
            if target <= d.line or target > len(index.lines):
                continue
            edit = noqa_edit(index.lines[target - 1], target, d.code, result.ends)
            if edit is None:
                continue
        a, b, new_text = edit
        actions.append(
            types.CodeAction(
                title=f"Disable {d.code} on this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[to_lsp(d, index)],
                edit=ls.workspace_edit(
                    uri,
                    result.version,
                    [
                        types.TextEdit(
                            range=types.Range(
                                start=index.to_client(target, a),
                                end=index.to_client(target, b),
                            ),
                            new_text=new_text,
                        )
                    ],
                ),
            )
        )
    return actions


async def code_action_resolve(ls: JaxlintServer, action: types.CodeAction) -> types.CodeAction:
    """`codeAction/resolve`: fill in the edit of a fix-all action."""
    if action.kind == FIX_ALL_KIND:
        return await resolve_fix_all(ls, action)
    return action


async def resolve_fix_all(ls: JaxlintServer, action: types.CodeAction) -> types.CodeAction:
    """The fix-all action with its edit, unless the document changed since it was offered."""
    data = action.data if isinstance(action.data, dict) else {}
    uri = data.get("uri")
    if not uri:
        return action
    result = await ls.lint(uri)
    if result is None or (data.get("version") not in (None, result.version)):
        return action  # the document changed since; the client asks again
    new_text = await ls.fixed_text(result, uri)
    if new_text != result.text:
        edits = diff_edits(result.text, new_text, result.index)
        action.edit = ls.workspace_edit(uri, result.version, edits)
    return action
