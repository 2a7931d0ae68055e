"""Uniformly distributed random orientations (Drake's UniformlyRandomQuaternion and
relatives), drawn from a numpy Generator such as merganser.framework.RandomGenerator.

A quaternion drawn from the isotropic 4-dimensional normal distribution and normalized is
uniform on the unit 3-sphere, so its rotation is uniform on SO(3) (Haar measure).
"""

import numpy as np

from .angle_axis import AngleAxis
from .quaternion_type import Quaternion
from .rotation_matrix import RollPitchYaw, RotationMatrix

__all__ = [
    "uniformly_random_angle_axis", "uniformly_random_quaternion",
    "uniformly_random_rotation_matrix", "uniformly_random_rpy",
]


def uniformly_random_quaternion(generator):
    """A Quaternion uniform on the unit sphere; generator a numpy Generator."""
    q = generator.standard_normal(4)
    while np.linalg.norm(q) < 1e-6:      # measure-zero guard against a degenerate draw
        q = generator.standard_normal(4)
    return Quaternion(q / np.linalg.norm(q))


def uniformly_random_angle_axis(generator):
    """An AngleAxis of a uniformly random rotation (angle in [0, π])."""
    return AngleAxis(quaternion=uniformly_random_quaternion(generator))


def uniformly_random_rotation_matrix(generator):
    """A RotationMatrix uniform on SO(3)."""
    return RotationMatrix(uniformly_random_quaternion(generator))


def uniformly_random_rpy(generator):
    """The roll-pitch-yaw angles [r, p, y] (shape (3,)) of a uniformly random rotation."""
    return RollPitchYaw(uniformly_random_quaternion(generator)).vector()
