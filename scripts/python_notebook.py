#!/usr/bin/env python3
"""Writes the notebook of a Python example from its script: `# %%` starts a code cell, `# %% [markdown]` a
markdown cell (its lines without the leading '# '). The notebook has no outputs; python/tests/test_examples.py
fails when a committed notebook differs from what this writes.

usage: scripts/python_notebook.py examples/python/NAME.py   (writes examples/python/NAME.ipynb)
"""
from __future__ import annotations

import json
import pathlib
import sys


def cells(script: str) -> list[dict]:
    out: list[dict] = []
    for number, block in enumerate(script.split("# %%")[1:]):
        header, _, body = block.partition("\n")
        markdown = header.strip() == "[markdown]"
        lines = body.strip("\n").splitlines()
        if markdown:
            lines = [line[2:] if line.startswith("# ") else line.lstrip("#") for line in lines]
        source = [line + "\n" for line in lines]
        if source:
            source[-1] = source[-1].rstrip("\n")
        cell = {"cell_type": "markdown" if markdown else "code", "id": f"cell-{number}", "metadata": {},
                "source": source}
        if not markdown:
            cell.update({"execution_count": None, "outputs": []})
        out.append(cell)
    return out


def notebook(script: str) -> str:
    document = {"cells": cells(script),
                "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                             "language_info": {"name": "python"}},
                "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    script = pathlib.Path(sys.argv[1])
    script.with_suffix(".ipynb").write_text(notebook(script.read_text()))
    print(f"wrote {script.with_suffix('.ipynb')}")
