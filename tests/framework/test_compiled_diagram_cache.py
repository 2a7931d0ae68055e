"""The cache directory of compiled diagrams stays bounded (compiled_diagram.clean_cache):
modules of another merganser or numba version go, then the least recently used beyond
the limit, each with its machine code; modules in use stay."""

import os

import numpy as np
from random_diagrams import RandomDiagram

from merganser.framework.compiled_diagram import (cache_directory, clean_cache,
                                                  compile_diagram_dynamics)


def compile_one(seed):
    """Compile (and evaluate) a random wiring; its module's path."""
    diagram = RandomDiagram(seed, num_stateful=1, num_feedthrough=1).build()
    ctx = diagram.create_default_context()
    before = set(cache_directory().glob("diagram_*.py"))
    assert compile_diagram_dynamics(diagram, ctx)
    np.asarray(diagram.eval_time_derivatives(ctx))
    new = set(cache_directory().glob("diagram_*.py")) - before
    return new.pop() if new else None


def fake_module(directory, key, first_line, used):
    """A generated module ``diagram_<key>.py`` last used at time ``used`` (s), with one
    numba cache file."""
    path = directory / f"diagram_{key}.py"
    path.write_text(first_line + "x = 1\n")
    numba_file = directory / "__pycache__" / f"diagram_{key}.time_derivatives-9.py311.nbi"
    numba_file.parent.mkdir(exist_ok=True)
    numba_file.write_bytes(b"")
    os.utime(path, (used, used))
    return path, numba_file


def test_clean_cache_removes_other_versions_then_the_least_recently_used(tmp_path, monkeypatch):
    monkeypatch.setenv("MERGANSER_CACHE_DIR", str(tmp_path))
    directory = cache_directory()
    real = compile_one(11)                    # loaded by this process: never removed
    header = real.read_text().splitlines(keepends=True)[0]
    assert "merganser" in header and "numba" in header
    stale = fake_module(directory, "0" * 20, header.replace("numba", "numba-other"), 3e9)
    old = fake_module(directory, "1" * 20, header, 1e9)
    newer = fake_module(directory, "2" * 20, header, 2e9)
    newest = fake_module(directory, "3" * 20, header, 3e9)
    removed = clean_cache(limit=3)
    assert sorted(removed) == ["0" * 20, "1" * 20]
    for path in (*stale, *old):
        assert not path.exists()
    for path in (*newer, *newest, real):
        assert path.exists()


def test_writing_a_new_module_bounds_the_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("MERGANSER_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("MERGANSER_COMPILED_DIAGRAM_CACHE_LIMIT", "2")
    directory = cache_directory()
    directory.mkdir(parents=True)
    first = compile_one(12)
    header = first.read_text().splitlines(keepends=True)[0]
    unused = [fake_module(directory, str(k) * 20, header, 1e9 + k)[0] for k in range(4, 7)]
    second = compile_one(13)
    assert second is not None and second.exists() and first.exists()
    assert not any(path.exists() for path in unused)
    assert len(list(directory.glob("diagram_*.py"))) == 2
