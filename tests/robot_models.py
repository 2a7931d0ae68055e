"""Robots shared by tests in several directories.

- `actuated_panda`: example-robot-data's panda.urdf loaded with the Parser, its base welded
  to the world and an actuator on every one-dof joint (the URDF has no transmissions);
  nq = nv = nu = 9, joint damping 0.003 (arm) and 0.3 (fingers).
- `load_reference_model`: a model of tests/data/models for which tests/data/reference holds
  Drake's values, loaded by the Parser and attached as Drake's reference was computed;
  `damping_vector`: a plant's joint damping per velocity.
"""

import warnings
from pathlib import Path

import numpy as np

from merganser.geometry import RigidTransform
from merganser.multibody import (FixedOffsetFrame, MultibodyPlant, Parser, RevoluteJoint,
                                 SpatialInertia)
from merganser.multibody.parsing import ParseWarning

DATA = Path(__file__).resolve().parent / "data"
MODELS = DATA / "models"
PANDA_URDF = MODELS / "example-robot-data" / "robots" / "panda_description" / "urdf" / "panda.urdf"

#: reference model name -> (model file under tests/data/models, frame welded to the world
#: or None when the file attaches the base itself: its world link, an SDFormat world
#: joint, or a free body)
REFERENCE_MODELS = {
    "acrobot": ("drake/acrobot/Acrobot.urdf", None),
    "cart_pole": ("drake/cart_pole/cart_pole.sdf", None),
    "pendulum": ("drake/pendulum/Pendulum.urdf", None),
    "panda": ("example-robot-data/robots/panda_description/urdf/panda.urdf", "panda_link0"),
    "ur5": ("example-robot-data/robots/ur_description/urdf/ur5_robot.urdf", None),
    "solo12": ("example-robot-data/robots/solo_description/robots/solo12.urdf", None),
}


def load_reference_model(name, time_step=0.0, plant=None):
    """(plant, model_instance, parser) for reference model `name`: a new plant, finalized,
    or, when `plant` is given, added to it (not finalized)."""
    path, weld = REFERENCE_MODELS[name]
    own = plant is None
    plant = MultibodyPlant(time_step) if own else plant
    parser = Parser(plant)
    parser.package_map().add("example-robot-data", MODELS / "example-robot-data")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        [instance] = parser.add_models(MODELS / path)
    if weld:
        plant.weld_frames(plant.world_frame(), plant.get_frame_by_name(weld, instance))
    if own:
        plant.finalize()
    return plant, instance, parser


def damping_vector(plant):
    """The joints' default damping per velocity, shape (nv,)."""
    d = np.zeros(plant.num_velocities())
    for j in plant.get_joint_indices():
        joint = plant.get_joint(j)
        d[joint.velocity_start():joint.velocity_start() + joint.num_velocities()] = \
            joint.default_damping_vector()
    return d


def actuated_panda(time_step=0.0):
    """The finalized, fully actuated Panda (see the module docstring)."""
    plant = MultibodyPlant(time_step)
    parser = Parser(plant)
    parser.package_map().add("example-robot-data", str(PANDA_URDF.parents[3]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # unsupported <dynamics> attributes, mimic
        [panda] = parser.add_models(str(PANDA_URDF))
    plant.weld_frames(plant.world_frame(),
                      plant.get_body_by_name("panda_link0", panda).body_frame())
    for j in plant.get_joint_indices():
        joint = plant.get_joint(j)
        if joint.num_velocities() == 1:
            plant.add_joint_actuator(joint.name(), joint)
    plant.finalize()
    return plant


def add_acrobot(plant):
    """Add Acrobot.urdf's bodies, joints and actuator to ``plant`` (not finalized)."""
    base = plant.add_rigid_body("base_link", SpatialInertia.zero())
    plant.weld_frames(plant.world_frame(), base.body_frame())
    upper = plant.add_rigid_body("upper_link", SpatialInertia.make_from_central_inertia(
        1.0, [0.0, 0.0, -0.5], np.diag([1.0, 0.083, 1.0])))
    lower = plant.add_rigid_body("lower_link", SpatialInertia.make_from_central_inertia(
        1.0, [0.0, 0.0, -1.0], np.diag([1.0, 0.33, 1.0])))
    shoulder_F = plant.add_frame(FixedOffsetFrame(
        "shoulder_parent", base.body_frame(), RigidTransform([0.0, 0.15, 0.0])))
    plant.add_joint(RevoluteJoint("shoulder", shoulder_F, upper.body_frame(), [0, 1, 0],
                                  damping=0.1))
    elbow_F = plant.add_frame(FixedOffsetFrame(
        "elbow_parent", upper.body_frame(), RigidTransform([0.0, 0.1, -1.0])))
    elbow = plant.add_joint(RevoluteJoint("elbow", elbow_F, lower.body_frame(), [0, 1, 0],
                                          damping=0.1))
    plant.add_joint_actuator("elbow", elbow)


def fast_path_queries(plant, context, bodies, jacobians, vdot):
    """Every fast-path query of the plant at the state of `context`, as a dict of arrays:
    the poses X_WB (len(bodies), 4, 4), each Jacobian of `jacobians` ({key: (frame_B,
    p_BoBp_B (3,), frame_A, frame_E)}, wrt v), M, v̇, the force elements' contribution
    and the inverse dynamics for `vdot` (nv,)."""
    from merganser.multibody import JacobianWrtVariable, MultibodyForces

    forces = MultibodyForces(plant)
    plant.calc_force_elements_contribution(context, forces)
    result = {"X_WB": np.array([plant.eval_body_pose_in_world(context, b).get_as_matrix4()
                                for b in bodies])}
    for key, (frame_B, p_BoBp_B, frame_A, frame_E) in jacobians.items():
        result[key] = plant.calc_jacobian_spatial_velocity(
            context, JacobianWrtVariable.kV, frame_B, np.asarray(p_BoBp_B, dtype=float),
            frame_A, frame_E)
    result.update(M=plant.calc_mass_matrix(context), vdot=plant.calc_forward_dynamics(context),
                  F_tau=forces.generalized_forces().copy(), F_body=forces.body_forces().copy(),
                  tau=plant.calc_inverse_dynamics(context, vdot, forces))
    return result

