"""The opt-in pydrake spelling layer: a pydrake-style script runs after changing its imports,
and the snake_case path is untouched. Run in a subprocess: importing the layer adds the
CamelCase names to the classes for the rest of that process."""

import subprocess
import sys
import textwrap
from pathlib import Path

MODELS = Path(__file__).resolve().parents[1] / "data" / "models"

SCRIPT = textwrap.dedent(f"""
    import numpy as np
    from merganser.framework import DiagramBuilder as Before, LeafSystem as LeafBefore
    add_system_before = Before.__dict__["add_system"]

    from merganser.pydrake_spelling import *
    from merganser.pydrake_spelling import camel_case
    import merganser.multibody as mb

    assert DiagramBuilder is Before and LeafSystem is LeafBefore
    assert DiagramBuilder.__dict__["add_system"] is add_system_before   # snake path untouched
    assert AddMultibodyPlantSceneGraph is mb.add_multibody_plant_scene_graph
    assert camel_case("calc_mass_matrix") == "CalcMassMatrix"
    assert camel_case("make_x_rotation") == "MakeXRotation"
    assert camel_case("AddSystem") == "AddSystem"
    assert camel_case("set_to_nan") == "SetToNaN" and camel_case("is_nan") == "IsNaN"
    from merganser.pydrake_spelling import UniformlyRandomRPY, DecomposePSDmatrixIntoXtransposeTimesX
    assert UniformlyRandomRPY(np.random.default_rng(1)).shape == (3,)    # as pydrake: an array
    X = DecomposePSDmatrixIntoXtransposeTimesX(np.diag([4.0, 0.0]), 1e-12)
    assert np.allclose(X.T @ X, np.diag([4.0, 0.0]))
    pp = PiecewisePolynomial.FirstOrderHold([0.0, 1.0], [[0.0, 1.0]])
    assert pp.isApprox(pp, 1e-12) and pp.IsApprox(pp, 1e-12)
    from merganser.pydrake_spelling import Meshcat as M, Simulator_
    import merganser.geometry as geometry
    assert M is geometry.Meshcat and StartMeshcat is geometry.start_meshcat
    assert Simulator_[float] is Simulator
    inertia = RotationalInertia(1.0, 2.0, 3.0)
    assert not inertia.IsNaN()
    inertia.SetToNaN()
    assert inertia.IsNaN() and np.isnan(inertia.get_moments()).all()

    class Decay(LeafSystem):                 # written as for pydrake
        def __init__(self, rate):
            LeafSystem.__init__(self)
            self.rate = rate
            self.DeclareContinuousState(1)
            self.DeclareVectorOutputPort("y", 1, self.CalcY)

        def DoCalcTimeDerivatives(self, context, derivatives):
            x = np.asarray(context.get_continuous_state_vector())
            derivatives.SetValue(-self.rate * x)

        def CalcY(self, context, output):
            output.SetValue(np.asarray(context.get_continuous_state_vector()))

    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step=0.0)
    Parser(plant).AddModels({str(MODELS / "drake" / "acrobot" / "Acrobot.urdf")!r})
    plant.Finalize()
    decay = builder.AddSystem(Decay(2.0))
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    decay_context = decay.GetMyContextFromRoot(context)
    decay_context.SetContinuousState([1.0])
    plant_context = plant.GetMyContextFromRoot(context)
    plant.get_actuation_input_port().FixValue(plant_context, [0.0])
    plant.SetPositions(plant_context, [0.3, -0.2])
    M = plant.CalcMassMatrix(plant_context)
    assert np.array_equal(M, plant.calc_mass_matrix(plant_context))
    simulator = Simulator(diagram, context)
    simulator.get_mutable_integrator().set_target_accuracy(1e-8)
    simulator.AdvanceTo(0.5)
    x = decay.get_output_port().Eval(decay_context)[0]
    assert abs(x - np.exp(-1.0)) < 1e-6, x
    R = RotationMatrix.MakeXRotation(0.25)
    assert np.allclose(R.matrix(), RotationMatrix.make_x_rotation(0.25).matrix())
    adder = Adder(1, 1)                      # a template method, on the class and the instance
    assert Adder.ToScalarTypeMaybe[float](adder) is None and adder.ToScalarTypeMaybe[float]() is None
    assert adder.GetSystemScalarConverter() is adder.get_system_scalar_converter()
    print("ok")
""")


def test_pydrake_style_script_runs_after_changing_its_imports(tmp_path):
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         cwd=tmp_path, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")


def test_a_subclass_override_is_what_the_camel_case_name_calls(tmp_path):
    code = textwrap.dedent("""
        from merganser.pydrake_spelling import LeafSystem
        class Named(LeafSystem):
            def get_name(self):
                return "override"
        assert Named().GetName() == "override"
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]


def test_no_two_layers_export_one_name_for_different_objects():
    """`from merganser.<layer> import *` of several layers (and the spelling layer, which
    exports them all) must not let one layer's name shadow another's: the directives'
    ``Rotation.AngleAxis`` (degrees) once shadowed the geometry's AngleAxis."""
    import importlib

    owner = {}
    for layer in ("framework", "geometry", "multibody", "controllers"):
        package = importlib.import_module(f"merganser.{layer}")
        for name in package.__all__:
            value = getattr(package, name)
            first = owner.setdefault(name, (layer, value))
            assert first[1] is value, (f"{name!r} is exported by {first[0]} and {layer} "
                                       f"for different objects")
    from merganser.geometry import AngleAxis
    from merganser.multibody import Rotation
    assert AngleAxis(0.5, [0.0, 0.0, 1.0]).angle() == 0.5
    assert Rotation.AngleAxis(angle_deg=90.0).to_rotation_matrix().matrix()[1, 0] == 1.0
