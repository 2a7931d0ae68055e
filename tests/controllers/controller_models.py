"""Robots for the controller tests, built by hand with the plant's construction API from
the numbers in Drake's model files (tests/data/models/drake/...), or loaded with the
Parser when it exists.

- Acrobot.urdf: base_link welded to world; shoulder (at [0, 0.15, 0] in base_link) and
  elbow (at [0, 0.1, -1] in upper_link) revolute about y with joint damping 0.1 (Drake
  applies URDF ``<dynamics damping>`` as joint damping); only the elbow is actuated (the
  URDF's one transmission). Links: 1 kg each, centers of mass at z = -0.5 and -1, central
  inertias diag(1, 0.083, 1) and diag(1, 0.33, 1).
- Pendulum.urdf: base welded 1 m above the world; the arm swings about y (joint
  ``theta``, damping 0.1, actuator ``tau``); the arm (0.5 kg at z = -0.5, zero rotational
  inertia) carries the welded ``arm_com`` body (another 0.5 kg at z = -0.5). Drake keeps
  the welded body and its mass, so the pendulum is 1 kg at l = 0.5 m: I = m l² = 0.25.
"""

from pathlib import Path


from merganser.geometry import RigidTransform
from merganser.multibody import FixedOffsetFrame, MultibodyPlant, RevoluteJoint, SpatialInertia
from robot_models import add_acrobot  # noqa: F401  (re-exported for the controller tests)

MODELS = Path(__file__).resolve().parents[1] / "data" / "models" / "drake"
ACROBOT_URDF = MODELS / "acrobot" / "Acrobot.urdf"
PENDULUM_URDF = MODELS / "pendulum" / "Pendulum.urdf"


def parser_available():
    try:
        from merganser.multibody import Parser  # noqa: F401
    except ImportError:
        return False
    return True


def add_pendulum(plant):
    """Add Pendulum.urdf's bodies, joint and actuator to ``plant`` (not finalized)."""
    base = plant.add_rigid_body("base", SpatialInertia.point_mass(1.0, [0.0, 0.0, 0.015]))
    plant.weld_frames(plant.world_frame(), base.body_frame(), RigidTransform([0.0, 0.0, 1.0]))
    arm = plant.add_rigid_body("arm", SpatialInertia.point_mass(0.5, [0.0, 0.0, -0.5]))
    arm_com = plant.add_rigid_body("arm_com", SpatialInertia.point_mass(0.5, [0.0, 0.0, -0.5]))
    theta = plant.add_joint(RevoluteJoint("theta", base.body_frame(), arm.body_frame(),
                                          [0, 1, 0], damping=0.1))
    plant.weld_frames(arm.body_frame(), arm_com.body_frame())
    plant.add_joint_actuator("tau", theta)


def make_plant(add, time_step=0.0):
    plant = MultibodyPlant(time_step)
    add(plant)
    plant.finalize()
    return plant


def make_acrobot(time_step=0.0):
    return make_plant(add_acrobot, time_step)


def make_pendulum(time_step=0.0):
    return make_plant(add_pendulum, time_step)


def load_plant(path, time_step=0.0):
    """The model in ``path`` through the Parser (only when ``parser_available()``)."""
    from merganser.multibody import Parser

    plant = MultibodyPlant(time_step)
    Parser(plant).add_models(str(path))
    plant.finalize()
    return plant


def make_double_pendulum(time_step=0.0, masses=(1.0, 1.0), lengths=(1.0, 1.0),
                         damping=(0.0, 0.0), actuated=(True, True)):
    """Two rods in the x-z plane swinging about y, each a point mass at its tip, hanging
    from the world origin; both joints actuated unless ``actuated`` says otherwise."""
    plant = MultibodyPlant(time_step)
    parent_frame = plant.world_frame()
    for k, (m, l, d, act) in enumerate(zip(masses, lengths, damping, actuated), start=1):
        link = plant.add_rigid_body(f"link{k}", SpatialInertia.point_mass(m, [0.0, 0.0, -l]))
        joint = plant.add_joint(RevoluteJoint(f"joint{k}", parent_frame, link.body_frame(),
                                              [0, 1, 0], damping=d))
        if act:
            plant.add_joint_actuator(f"motor{k}", joint)
        parent_frame = plant.add_frame(FixedOffsetFrame(
            f"link{k}_tip", link.body_frame(), RigidTransform([0.0, 0.0, -l])))
    plant.finalize()
    return plant
