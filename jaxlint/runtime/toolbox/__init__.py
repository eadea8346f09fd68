"""The JAX toolbox subcommands (`env`, `probe`, `bench`, `recompile`, `locate`) and their helpers.

`commands` registers the subcommands with the CLI and runs each tool's worker in the sandbox;
`inputs` and `loader` turn `--args` specs and `file.py::name` references into real values.
"""
