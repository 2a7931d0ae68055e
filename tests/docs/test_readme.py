"""README.md's code: every ```python block is a file of docs/snippets/ and runs; every
``from merganser.X import Y`` the README shows imports."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
SNIPPETS = ROOT / "docs" / "snippets"
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)
#: Snippets that need a cluster (a Dask scheduler at a remote address, a Ray cluster):
#: compiled, and their names checked, but not run.
NEEDS_A_CLUSTER = {"executors.py", "ray_executor.py"}


def _snippet_of(block):
    for path in sorted(SNIPPETS.glob("*.py")):
        if path.read_text() == block:
            return path.name
    return None


def test_every_python_block_is_a_snippet_file():
    assert len(BLOCKS) >= 5
    missing = [block.splitlines()[0] for block in BLOCKS if _snippet_of(block) is None]
    assert missing == [], "README blocks without an identical file in docs/snippets/"
    assert {p.name for p in SNIPPETS.glob("*.py")} == {_snippet_of(b) for b in BLOCKS}


@pytest.mark.parametrize("name", sorted(p.name for p in SNIPPETS.glob("*.py")))
def test_snippet_runs(name, tmp_path):
    source = (SNIPPETS / name).read_text()
    if name in NEEDS_A_CLUSTER:
        compile(source, name, "exec")
        return
    (tmp_path / "tests").symlink_to(ROOT / "tests")      # the README's relative model paths
    env = dict(os.environ, MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, str(SNIPPETS / name)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]


def test_names_the_readme_imports_exist():
    imports = re.findall(r"from (merganser[\w.]*) import ([\w, ]+)", README)
    assert len(imports) > 5
    for module, names in imports:
        namespace = {}
        exec(f"from {module} import {names}", namespace)
