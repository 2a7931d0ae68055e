"""The packages re-export their names lazily (merganser.framework.lazy_exports) and numba
loads at the first kernel call: importing a package runs only the modules a name needs,
yet every public name stays importable from where it always was."""

import importlib
import os
import pkgutil
import subprocess
import sys

import pytest

LAYERS = ("framework", "geometry", "multibody", "controllers")


def _fresh(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def _packages():
    for layer in LAYERS:
        package = importlib.import_module(f"merganser.{layer}")
        yield package
        for info in pkgutil.walk_packages(package.__path__, f"merganser.{layer}."):
            if info.ispkg:
                yield importlib.import_module(info.name)


def test_importing_the_plant_imports_neither_numba_nor_the_visualizer():
    loaded = _fresh(
        "import sys\n"
        "import merganser.framework, merganser.geometry, merganser.multibody\n"
        "n = len([m for m in sys.modules if m.startswith('merganser.')])\n"
        "import merganser.multibody.plant, merganser.controllers\n"
        "from merganser.multibody.plant import MultibodyPlant\n"
        "print(n, 'numba' in sys.modules, 'llvmlite' in sys.modules,"
        " 'merganser.geometry.visualization.meshcat' in sys.modules)")
    assert int(loaded[0]) < 60          # the packages' own modules, not the plant's
    assert loaded[1:] == ["False"] * 3


def test_the_four_packages_import_no_plant_scipy_or_compiled_diagram_machinery():
    loaded = _fresh(
        "import sys\n"
        "import merganser.framework, merganser.geometry, merganser.multibody, "
        "merganser.controllers\n"
        "print(*[name in sys.modules for name in ('merganser.multibody.plant.multibody_plant',"
        " 'merganser.framework.compiled_diagram', 'scipy', 'pydantic',"
        " 'merganser.controllers.pid_compiled_form')])")
    assert loaded == ["False"] * 5


def test_compiled_forms_registered_lazily_are_found_at_first_lookup():
    out = _fresh(
        "import sys\n"
        "from merganser.controllers import PidController\n"
        "from merganser.multibody import MultibodyPlant\n"
        "from merganser.framework.compiled_diagram import compiled_form_of\n"
        "before = 'merganser.controllers.pid_compiled_form' in sys.modules\n"
        "form = compiled_form_of(PidController([1.0], [0.0], [0.1]))\n"
        "plant = MultibodyPlant(0.0); plant.finalize()\n"
        "plant_form = compiled_form_of(plant)\n"
        "print(before, form is not None, 'merganser.multibody.plant.compiled_form' in "
        "sys.modules, plant_form is not None)")
    assert out == ["False", "True", "True", "True"]


def test_every_name_in_every_packages_all_resolves():
    missing = [f"{package.__name__}.{name}" for package in _packages()
               for name in getattr(package, "__all__", ()) if not hasattr(package, name)]
    assert missing == []


@pytest.mark.parametrize("layer", LAYERS)
def test_star_import_gives_the_whole_all(layer):
    namespace = {}
    exec(f"from merganser.{layer} import *", namespace)
    package = importlib.import_module(f"merganser.{layer}")
    assert sorted(set(namespace) - {"__builtins__"}) == sorted(package.__all__)
    assert all(namespace[name] is getattr(package, name) for name in package.__all__)


def test_a_name_wins_over_its_submodule_imported_first():
    """``linearize`` is a function of the module ``linearize``: importing the module
    first (as another module does) must not turn the package's name into the module."""
    out = _fresh(
        "import types\n"
        "import merganser.framework.analysis.linearize as m\n"
        "from merganser.framework.analysis import linearize\n"
        "print(isinstance(linearize, types.FunctionType), callable(linearize))")
    assert out == ["True", "True"]


def test_subpackages_and_unlisted_names_are_attributes():
    import merganser.geometry
    import merganser.multibody

    assert merganser.multibody.plant.MultibodyPlant is merganser.multibody.MultibodyPlant
    assert "Meshcat" not in merganser.geometry.__all__        # not loaded by import *
    assert "Meshcat" in dir(merganser.geometry)
    from merganser.geometry import Meshcat
    from merganser.geometry.visualization import Meshcat as same
    assert Meshcat is same
    with pytest.raises(AttributeError, match="merganser.multibody.*no_such_name"):
        merganser.multibody.no_such_name  # noqa: B018


def test_a_plant_without_contact_reaches_no_contact_kernel():
    """A discrete pendulum (no geometry, no constraint) steps with the dynamics kernels
    only: no kernel of the contact pipeline or of the geometry queries is compiled or
    loaded from the cache."""
    out = _fresh(
        "import sys\n"
        "import numpy as np\n"
        "from merganser.multibody import MultibodyPlant, RevoluteJoint, SpatialInertia\n"
        "from merganser.framework.compilation import aot_status, compile_statistics\n"
        "plant = MultibodyPlant(1e-3)\n"
        "bob = plant.add_rigid_body('bob', SpatialInertia.make_from_central_inertia(\n"
        "    1.0, [0.0, 0.0, -0.8], np.diag([2e-3, 2e-3, 2e-3])))\n"
        "plant.add_joint(RevoluteJoint('pivot', plant.world_frame(), bob.body_frame(), [0, 1, 0]))\n"
        "plant.finalize()\n"
        "context = plant.create_default_context()\n"
        "context.set_discrete_state(np.array([0.3, 0.0]))\n"
        "plant.simulate(0.01, context=context, progress=False)\n"
        "names = sorted(set(compile_statistics()) | set(aot_status()['bound']))\n"
        "contact = [n for n in names if n.startswith(('merganser.multibody.contact.',\n"
        "                                              'merganser.geometry.'))]\n"
        "print(len(names), len(contact), context.get_discrete_state_vector().value()[0] < 0.3)")
    assert int(out[0]) > 0
    assert out[1:] == ["0", "True"]
