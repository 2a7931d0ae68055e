"""Issue 15 item 2: massless bodies are accepted at finalize as in Drake, and a singular
articulated inertia is reported as one documented error, SingularDynamicsError (a
RuntimeError) naming the body, its joint and the likely cause, from every path: forward
dynamics, continuous and discrete simulation (with and without contact), URDF and MJCF."""

from pathlib import Path

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import CoulombFriction, HalfSpace, RigidTransform, Sphere
from merganser.multibody import (
    MultibodyPlant, Parser, RevoluteJoint, SingularDynamicsError, SpatialInertia,
    add_multibody_plant_scene_graph,
)

MODELS = Path(__file__).resolve().parents[1] / "data" / "models"
ACROBOT = MODELS / "drake" / "acrobot" / "Acrobot_no_collision.urdf"
MJCF = MODELS / "singular" / "acrobot_massless_base.xml"
MESSAGE = (r"calc_forward_dynamics: the articulated inertia of body 'base_link' on joint "
           r"'\$world_base_link' \(quaternion_floating\) to 'world' is singular.*massless body")


def _load(path, time_step, weld=False):
    plant = MultibodyPlant(time_step)
    with pytest.warns() if path.suffix == ".xml" else _nothing():
        Parser(plant).add_models(str(path))
    if weld:
        plant.weld_frames(plant.world_frame(), plant.get_frame_by_name("base_link"))
    plant.finalize()
    context = plant.create_default_context()
    if plant.num_actuators():
        plant.get_actuation_input_port().fix_value(context, np.zeros(plant.num_actuators()))
    return plant, context


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_massless_free_body_is_accepted_at_finalize_as_in_drake():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b")
    plant.finalize()                                    # Drake accepts it too
    assert body.default_mass() == 0.0
    with pytest.raises(SingularDynamicsError, match="body 'b' on joint '\\$world_b'"):
        plant.calc_forward_dynamics(plant.create_default_context())


def test_error_is_a_runtime_error_with_body_and_joint():
    plant, context = _load(ACROBOT, 0.0)
    with pytest.raises(RuntimeError) as info:
        plant.calc_forward_dynamics(context)
    error = info.value
    assert isinstance(error, SingularDynamicsError)
    assert (error.body_name, error.joint_name) == ("base_link", "$world_base_link")
    assert "translation and rotation" in str(error) and "weld it" in str(error)


@pytest.mark.parametrize("path", [ACROBOT, MJCF], ids=["urdf", "mjcf"])
@pytest.mark.parametrize("time_step", [0.0, 0.01], ids=["continuous", "discrete"])
def test_every_path_raises_the_same_error(path, time_step):
    plant, context = _load(path, time_step)
    with pytest.raises(SingularDynamicsError, match=MESSAGE):
        plant.calc_forward_dynamics(context)
    simulator = Simulator(plant, context)
    with pytest.raises(SingularDynamicsError, match=MESSAGE):
        simulator.advance_to(0.05)


def test_the_welded_acrobot_is_not_flagged():
    plant, context = _load(ACROBOT, 0.0, weld=True)
    plant.set_positions(context, [0.3, -0.2])
    vdot = plant.calc_forward_dynamics(context)
    M = plant.calc_mass_matrix(context)
    tau = plant.calc_gravity_generalized_forces(context) - plant.calc_bias_term(context)
    tau -= 0.1 * plant.get_velocities(context)           # joint damping (zero here)
    np.testing.assert_allclose(M @ vdot, tau, atol=1e-10)


def test_discrete_contact_step_raises_the_same_error():
    builder = DiagramBuilder()
    plant, _ = add_multibody_plant_scene_graph(builder, 0.01)
    plant.set_discrete_contact_approximation("sap")
    # a massive pendulum bob carried by a massless free hub: singular about the pin axis
    hub = plant.add_rigid_body("hub")
    bob = plant.add_rigid_body("bob", SpatialInertia.point_mass(1.0, [0.0, 0.0, -0.5]))
    plant.add_joint(RevoluteJoint("pin", hub.body_frame(), bob.body_frame(), [0, 1, 0]))
    plant.register_collision_geometry(bob, RigidTransform([0, 0, -0.5]), Sphere(0.1), "bob",
                                      CoulombFriction(0.5, 0.5))
    plant.register_collision_geometry(plant.world_body(), RigidTransform([0, 0, -0.55]),
                                      HalfSpace(), "ground", CoulombFriction(0.5, 0.5))
    plant.finalize()
    diagram = builder.build()
    simulator = Simulator(diagram)
    with pytest.raises(SingularDynamicsError, match="body 'hub' on joint '\\$world_hub'"):
        simulator.advance_to(0.02)
