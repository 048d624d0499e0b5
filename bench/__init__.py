"""Benchmarks, run with `make bench` (`python -m bench`).

Each module in this package is one benchmark: it defines `main(quick=False)` returning the rows of
a table (a list of dicts, one per line, the keys being the columns) and may set `TITLE`.
`python -m bench` finds and runs every such module and prints each table in Markdown; name modules
on the command line to run only those (`python -m bench solver`).
"""
