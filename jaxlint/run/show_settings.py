"""`jaxlint check --show-settings`: the resolved settings as a user would write them.

Each line is a `[tool.jaxlint]` key in TOML spelling (`extend-select = ["JAX205"]`) with where
its value came from; the command line's layer shows as its flags (`--ignore JAX801`), and the
target JAX and the selected rules close the listing. Attribute names of `Settings`
(`extend_select`, `cli_ignore`) never appear: a user cannot write them.
"""

from __future__ import annotations

import json

from jaxlint.core.config import Settings

# --show-settings prints the names users write in [tool.jaxlint] (and on the command line)
SETTING_KEYS = {
    "select": "select",
    "extend_select": "extend-select",
    "ignore": "ignore",
    "per_file_ignores": "per-file-ignores",
    "exclude": "exclude",
    "jit_decorators": "jit-decorators",
    "respect_gitignore": "respect-gitignore",
    "force_exclude": "force-exclude",
    "verify": "verify",
}
CLI_FLAGS = {
    "cli_select": "--select",
    "cli_extend_select": "--extend-select",
    "cli_ignore": "--ignore",
}
# bookkeeping, or shown on their own lines (target-jax, root, options)
NOT_SETTINGS = {
    "config_keys",
    "cli_set",
    "config_file",
    "options",
    "root",
    "target_jax",
    "target_jax_source",
    "infer_target",
    "project_root",
}


def option_defaults() -> dict[str, object]:
    """The value each option has when nothing sets it: what the code that reads the option
    falls back to (the unroll threshold is the rule's own constant, never a copy)."""
    from jaxlint.rules.compile.unrolled_python_loop_in_traced import DEFAULT_UNROLL_THRESHOLD

    return {
        "unroll-threshold": DEFAULT_UNROLL_THRESHOLD,
        "x64": False,
        "min-confidence": "medium",
    }


def cache_dir_line(settings: Settings, explicit: str | None, disabled: bool = False) -> str:
    """`cache-dir = "..."  # origin`, resolved the way the cache resolves it (run/cache.py):
    `--cache-dir`, `$JAXLINT_CACHE_DIR`, `cache-dir` in the configuration, the default."""
    import os

    from jaxlint.run.cache import _configured_dir, default_dir

    path = default_dir(settings, explicit)
    if explicit:
        origin = "command line"
    elif os.environ.get("JAXLINT_CACHE_DIR"):
        origin = "$JAXLINT_CACHE_DIR"
    elif _configured_dir(settings):
        origin = settings.config_file or "configuration"
    else:
        origin = "default"
    if disabled:
        origin += "; not used: --no-cache"
    return f"cache-dir = {_show(path)}  # {origin}"


def show_settings(settings: Settings, target: str, cache_dir: str | None = None) -> str:
    """The resolved settings under the names users write in `[tool.jaxlint]` (`extend-select`,
    `per-file-ignores`), each with where it came from; the command line's layer as its flags.
    Every setting is shown, with its default when nothing sets it (`cache_dir`: the line
    `cache_dir_line` renders, which needs the command line)."""
    from dataclasses import fields

    cfg = settings.config_file
    out = [f"Resolved settings for: {target}"]
    out.append(f"Configuration file: {cfg or '(none: defaults)'}")
    root_origin = "folder of the configuration file" if cfg else "current folder"
    out.append(f"# paths are relative to {settings.root} ({root_origin})")
    for f in fields(settings):
        if f.name in NOT_SETTINGS or f.name in CLI_FLAGS:
            continue
        key = SETTING_KEYS.get(f.name, f.name.replace("_", "-"))
        value = getattr(settings, f.name)
        if f.name in settings.cli_set:
            origin = "command line"
        elif (
            key in settings.config_keys
            or (key == "ignore" and "extend-ignore" in settings.config_keys)
            or (key == "exclude" and "extend-exclude" in settings.config_keys)
            or (key == "per-file-ignores" and "extend-per-file-ignores" in settings.config_keys)
        ):
            origin = cfg or "default"
        else:
            origin = "default"
        if key == "select" and value is None:
            out.append("# select: not set (the default rules)")
        elif key in ("verify", "per-file-ignores") and not value:
            out.append(f"{key} = {{}}  # {origin}")  # a TOML table, empty
        else:
            out.append(f"{key} = {_show(value)}  # {origin}")
    options = dict(settings.options)
    for key, default in option_defaults().items():
        if key in options:
            cli = key == "min-confidence" and "options" in settings.cli_set
            origin = "command line" if cli else cfg
            out.append(f"{key} = {_show(options[key])}  # {origin or 'default'}")
        else:
            out.append(f"{key} = {_show(default)}  # default")
    if cache_dir is not None:
        out.append(cache_dir)
    for name, flag in CLI_FLAGS.items():
        value = getattr(settings, name)
        if value:
            out.append(f"{flag} {','.join(value)}  # command line (over the configuration)")
    from jaxlint.rules import ALL_RULES

    jax_target = settings.jax_target()
    out.append(f"target-jax = {_show(jax_target.text())}  # from {jax_target.source}")
    note = jax_target.coverage_note()
    if note:
        out.append(f"# note: {note}")
    codes = sorted(settings.selected_codes(ALL_RULES))
    out.append(f"# selected rules ({len(codes)}): {', '.join(codes)}")
    return "\n".join(out) + "\n"


def _show(value: object) -> str:
    """A value as TOML spells it (`true`, `"x"`, `["a"]`, `{"x.py" = ["JAX1"]}`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, tuple):
        if value and all(isinstance(v, tuple) and len(v) == 2 for v in value):
            return "{" + ", ".join(f"{_show(k)} = {_show(v)}" for k, v in value) + "}"
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return repr(value)
