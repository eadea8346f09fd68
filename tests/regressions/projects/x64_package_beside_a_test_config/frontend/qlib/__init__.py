"""catalyst frontend/catalyst/__init__.py: the package (under `frontend/`, installed with
`package_dir={"": "frontend"}`) imports its jit module, which turns x64 on at import."""

from qlib.jit import qjit

__all__ = ["qjit"]
