"""Robots shared by tests in several directories.

- `actuated_panda`: example-robot-data's panda.urdf loaded with the Parser, its base welded
  to the world and an actuator on every one-dof joint (the URDF has no transmissions);
  nq = nv = nu = 9, joint damping 0.003 (arm) and 0.3 (fingers).
"""

import warnings
from pathlib import Path

from merganser.multibody import MultibodyPlant, Parser

PANDA_URDF = (Path(__file__).resolve().parent / "data" / "models" / "example-robot-data"
              / "robots" / "panda_description" / "urdf" / "panda.urdf")


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
