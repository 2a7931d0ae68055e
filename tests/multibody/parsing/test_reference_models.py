"""Every model of tests/data/models, loaded by the Parser, reproduces Drake 1.51's values
(tests/data/reference/*.npz) at ten random states: M, C(q,v)v, tau_g, inverse and
forward dynamics, body poses, Jacobians, energies and center of mass, with nq, nv and
position/velocity names equal to Drake's.

Tolerance: 1e-9 relative to each quantity's scale (its largest magnitude over the ten
states, at least 1). The reference forward dynamics has no joint damping; the plant
applies -D v, so the expected value is fd - M⁻¹ D v (the acrobot and the pendulum have
damping 0.1)."""

import warnings
from pathlib import Path

import numpy as np
import pytest
from robot_models import REFERENCE_MODELS, damping_vector, load_reference_model

from merganser.multibody.parsing import Parser, ParseWarning
from merganser.multibody.plant import JacobianWrtVariable, MultibodyForces, MultibodyPlant

DATA = Path(__file__).resolve().parents[2] / "data"
MODELS = DATA / "models"
REFERENCE = DATA / "reference"
RTOL = 1e-9

CASES = REFERENCE_MODELS


def load(name):
    """(plant, model_instance, parser) for reference model `name`, finalized."""
    return load_reference_model(name)


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    plant, instance, parser = load(request.param)
    ref = dict(np.load(REFERENCE / f"{request.param}.npz"))
    return request.param, plant, instance, parser, ref


def states(plant, ref):
    context = plant.create_default_context()
    for k in range(ref["q"].shape[0]):
        plant.set_positions(context, ref["q"][k])
        plant.set_velocities(context, ref["v"][k])
        yield k, context


def assert_close(actual, expected, what):
    expected = np.asarray(expected, dtype=float)
    scale = max(1.0, float(np.max(np.abs(expected))))
    np.testing.assert_allclose(actual, expected, rtol=0.0, atol=RTOL * scale, err_msg=what)


def test_sizes_and_coordinate_names_match_drake(case):
    name, plant, instance, parser, ref = case
    assert plant.num_positions() == int(ref["nq"])
    assert plant.num_velocities() == int(ref["nv"])
    assert plant.get_position_names(instance, add_model_instance_prefix=False) == list(
        ref["position_names"])
    assert plant.get_velocity_names(instance, add_model_instance_prefix=False) == list(
        ref["velocity_names"])
    bodies = [plant.get_body(b).name() for b in plant.get_body_indices(instance)]
    assert bodies == list(ref["body_names"])


def test_mass_matrix_bias_and_gravity_match_drake(case):
    name, plant, instance, parser, ref = case
    for k, context in states(plant, ref):
        assert_close(plant.calc_mass_matrix(context), ref["M"][k], f"{name} M, state {k}")
        assert_close(plant.calc_bias_term(context), ref["Cv"][k], f"{name} Cv, state {k}")
        assert_close(plant.calc_gravity_generalized_forces(context), ref["tau_g"][k],
                     f"{name} tau_g, state {k}")


def test_inverse_and_forward_dynamics_match_drake(case):
    name, plant, instance, parser, ref = case
    forces = MultibodyForces(plant)
    B = plant.make_actuation_matrix()
    D = damping_vector(plant)
    for k, context in states(plant, ref):
        assert_close(plant.calc_inverse_dynamics(context, ref["vdot"][k], forces), ref["id"][k],
                     f"{name} inverse dynamics, state {k}")
        tau = ref["tau"][k]
        u = B.T @ tau
        plant.get_actuation_input_port().fix_value(context, u)
        plant.get_applied_generalized_force_input_port().fix_value(context, tau - B @ u)
        expected = ref["fd"][k] - np.linalg.solve(ref["M"][k], D * ref["v"][k])
        assert_close(plant.calc_forward_dynamics(context), expected,
                     f"{name} forward dynamics, state {k}")


def test_body_poses_and_jacobians_match_drake(case):
    name, plant, instance, parser, ref = case
    W = plant.world_frame()
    bodies = [plant.get_body_by_name(str(b), instance) for b in ref["body_names"]]
    for k, context in states(plant, ref):
        for b, body in enumerate(bodies):
            assert_close(plant.eval_body_pose_in_world(context, body).get_as_matrix4(),
                         ref["X_WB"][k, b], f"{name} X_WB {body.name()}, state {k}")
            J = plant.calc_jacobian_spatial_velocity(context, JacobianWrtVariable.kV,
                                                     body.body_frame(), np.zeros(3), W, W)
            assert_close(J, ref["J_WB"][k, b], f"{name} J_WB {body.name()}, state {k}")


def test_energies_and_center_of_mass_match_drake(case):
    name, plant, instance, parser, ref = case
    for k, context in states(plant, ref):
        assert_close(plant.calc_kinetic_energy(context), ref["ke"][k], f"{name} ke, state {k}")
        assert_close(plant.calc_potential_energy(context), ref["pe"][k], f"{name} pe, state {k}")
        assert_close(plant.calc_center_of_mass_position_in_world(context), ref["com"][k],
                     f"{name} com, state {k}")


def test_meshes_resolve_through_the_package_map(case):
    name, plant, instance, parser, ref = case
    meshes = [g for g in parser.geometries() if g.shape in ("Mesh", "Convex")]
    if name in ("panda", "ur5", "solo12"):
        assert meshes, f"{name} has mesh geometry"
    root = str((MODELS / "example-robot-data").resolve())
    for g in meshes:
        assert Path(g.mesh_path()).is_file()
        assert g.mesh_path().startswith(root)


def test_every_element_of_the_file_is_in_the_report(case):
    name, plant, instance, parser, ref = case
    from lxml import etree

    path = MODELS / CASES[name][0]
    report = parser.last_report()
    lines = {e.line for e in report.entries if e.file == str(path)}
    for el in etree.parse(str(path)).getroot().iter():
        if isinstance(el.tag, str):
            assert el.sourceline in lines, f"{path.name}:{el.sourceline} <{el.tag}> not reported"


MODEL_FILES = sorted(str(p.relative_to(MODELS)) for p in MODELS.rglob("*")
                     if p.suffix in (".urdf", ".sdf", ".xml"))


@pytest.mark.parametrize("path", MODEL_FILES)
def test_every_model_file_loads_with_meshes_resolved(path):
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().add("example-robot-data", MODELS / "example-robot-data")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        instances = parser.add_models(MODELS / path)
    # solo.urdf's OBJ meshes are missing from the copied data: without a SceneGraph they
    # are warned (test_malformed) and their geometry is left out; every other mesh resolves.
    assert len(instances) == 1
    for g in parser.geometries():
        if g.shape in ("Mesh", "Convex"):
            assert Path(g.mesh_path()).is_file()
    plant.finalize()
    assert plant.num_bodies() > 1
