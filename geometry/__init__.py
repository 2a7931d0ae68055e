"""geometry package: poses (RigidTransform, RotationMatrix, RollPitchYaw), quaternion
helpers, shapes and the scene graph."""

from .quaternion import (
    normalize_quaternion,
    quaternion_conjugate,
    quaternion_multiply,
    quaternion_to_rotation_matrix,
    rotation_matrix_to_quaternion,
)
from .rigid_transform import RigidTransform
from .roll_pitch_yaw import RollPitchYaw
from .rotation_matrix import RotationMatrix

__all__ = [
    "RigidTransform",
    "RollPitchYaw",
    "RotationMatrix",
    "normalize_quaternion",
    "quaternion_conjugate",
    "quaternion_multiply",
    "quaternion_to_rotation_matrix",
    "rotation_matrix_to_quaternion",
]
