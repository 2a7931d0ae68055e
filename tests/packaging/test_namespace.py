"""The four layers install under one namespace, merganser.*; the old top-level names are gone;
`import merganser` gives the most-used names lazily (as pydrake.all gives them)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import merganser

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["framework", "geometry", "multibody", "controllers", "merganser_cli"])
def test_top_level_names_do_not_import(name, tmp_path):
    """Outside the checkout (whose folders a script run from the repository root could see
    as plain folders), only merganser.* is installed."""
    code = f"import importlib.util, merganser; print(importlib.util.find_spec({name!r}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, check=True)
    assert out.stdout.strip() == "None"


def test_layers_import_under_the_namespace():
    from merganser.controllers import PidController
    from merganser.framework import DiagramBuilder
    from merganser.geometry import RigidTransform
    from merganser.multibody import MultibodyPlant
    assert merganser.DiagramBuilder is DiagramBuilder
    assert merganser.MultibodyPlant is MultibodyPlant
    assert merganser.RigidTransform is RigidTransform
    assert merganser.PidController is PidController
    assert merganser.multibody.MultibodyPlant is MultibodyPlant


def test_every_advertised_name_resolves():
    assert [n for n in merganser.__all__ if not hasattr(merganser, n)] == []


def test_unknown_name_raises_attribute_error_naming_the_subpackages():
    with pytest.raises(AttributeError, match="merganser.multibody"):
        merganser.NoSuchThing  # noqa: B018


def test_import_merganser_alone_loads_no_layer():
    code = ("import sys, merganser; print(sorted(m for m in sys.modules "
            "if m.startswith('merganser.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_plain_install_works_from_another_directory(tmp_path):
    """`pip install .` (not editable) lays the folders out as merganser/framework, ...;
    the installed copy imports from a directory that is not the checkout. (The layout is
    the point here: the ahead-of-time kernels, minutes of compiling, are left out with
    MERGANSER_AOT=0; CI's own install builds them.)"""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), str(REPO)],
                   check=True, capture_output=True, cwd=tmp_path,
                   env=dict(os.environ, MERGANSER_AOT="0"))
    assert (target / "merganser" / "multibody" / "plant").is_dir()
    assert (target / "merganser" / "cli" / "main.py").is_file()
    code = ("import merganser.multibody, merganser.controllers, merganser.cli.main, os; "
            "print(os.path.dirname(merganser.multibody.__file__))")
    env = dict(os.environ, PYTHONPATH=str(target))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, env=env, check=True)
    assert Path(out.stdout.strip()) == target / "merganser" / "multibody"
