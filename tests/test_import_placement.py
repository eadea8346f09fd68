"""Where a fix's new import goes (edits/imports.import_position): where imports go, as isort
groups them, never after the project's own imports (issue 27 item 9, JAX103's fix)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from jaxlint.analysis import ModuleFacts
from jaxlint.core.source import SourceText
from jaxlint.edits.imports import ensure_module
from jaxlint.edits.view import ModuleView
from jaxlint.engine import LintOptions, fix_text


def _insert(code: str, module: str) -> str:
    text = textwrap.dedent(code)
    view = ModuleView("t.py", SourceText(text), ModuleFacts(ast.parse(text), ()))
    _, edits = ensure_module(view, module)
    return view.source.apply(edits)


@pytest.mark.parametrize(
    ("code", "want"),
    [
        (  # beside the module's other imports of the package
            "import os\nfrom jax import jit\nfrom .model import net\n\nx = 1\n",
            "import os\nfrom jax import jit\nimport jax\nfrom .model import net\n\nx = 1\n",
        ),
        (  # above the local (relative) imports and the comment heading them
            '"""Doc."""\nimport numpy as np\n\n# project\nfrom .model import net\n\nx = 1\n',
            '"""Doc."""\nimport numpy as np\n\nimport jax\n# project\nfrom .model import net\n\nx = 1\n',
        ),
        (  # no local import: after the last import, as before
            "import numpy as np\n\nx = 1\n",
            "import numpy as np\nimport jax\n\nx = 1\n",
        ),
    ],
)
def test_new_import_goes_where_imports_go(code, want):
    assert _insert(code, "jax") == want


def test_jax103_fix_puts_import_jax_with_the_jax_imports():
    code = textwrap.dedent(
        """\
        import numpy as np
        from jax import jit
        from .model import net
        from . import utils


        @jit
        def f(x):
            print(x)
            return net(x)
        """
    )
    out = fix_text(code, "t.py", LintOptions(codes=frozenset({"JAX103"})), unsafe=True).text
    assert 'jax.debug.print("{}", x)' in out
    head = out.split("\n\n")[0].splitlines()
    assert head == [
        "import numpy as np",
        "from jax import jit",
        "import jax",
        "from .model import net",
        "from . import utils",
    ]
