"""Paths and bytes: which files a run lints, reading them once, notebooks, and atomic writes.

This layer sits above the engine, which sees text only: `driver.lint_file` / `driver.fix_file`
read a file (or take the bytes a caller already read), hand its text to the engine (through
`notebook` for `.ipynb`), and write fixes back with `write.write_atomic`.
"""
