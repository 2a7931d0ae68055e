"""Quaternion canonical forms and kinematics (Drake's math/quaternion.h), on Quaternion
values.

With q = q_AB and the angular velocity w_AB_B of B in A expressed in B, the quaternion
rate is q̇ = ½ q ⊗ [0, w_AB_B] (Kane, *Spacecraft Dynamics*, 1983, §1.13), and
conversely w_AB_B = 2 vec(q* ⊗ q̇) / |q|². Unit norm makes 2 q·q̇ = 0 the rate constraint.
"""

import numpy as np

from .quaternion import quaternion_conjugate, quaternion_multiply
from .quaternion_type import Quaternion

__all__ = [
    "are_quaternions_equal_for_orientation", "calculate_angular_velocity_expressed_in_b_from_quaternion_dt",
    "calculate_quaternion_dt_constraint_violation",
    "calculate_quaternion_dt_from_angular_velocity_expressed_in_b", "closest_quaternion",
    "is_both_quaternion_and_quaternion_dt_ok", "is_quaternion_in_canonical_form",
    "is_quaternion_valid", "quaternion_to_canonical_form",
]


def closest_quaternion(quat1, quat2):
    """quat2 or −quat2 (the same orientation), whichever is nearer quat1 on the sphere."""
    q2 = quat2.wxyz()
    return Quaternion._raw(q2 if quat1.wxyz() @ q2 >= 0 else -q2)


def is_quaternion_in_canonical_form(quat):
    """Whether w >= 0."""
    return quat.w() >= 0.0


def quaternion_to_canonical_form(quat):
    """quat, or −quat when its w is negative (same orientation, w >= 0)."""
    q = quat.wxyz()
    return Quaternion._raw(q if q[0] >= 0 else -q)


def are_quaternions_equal_for_orientation(quat1, quat2, tolerance):
    """Whether the canonical forms differ by at most ``tolerance`` in every coefficient."""
    a = quaternion_to_canonical_form(quat1).wxyz()
    b = quaternion_to_canonical_form(quat2).wxyz()
    return bool(np.max(np.abs(a - b)) <= tolerance)


def calculate_quaternion_dt_from_angular_velocity_expressed_in_b(quat_AB, w_AB_B):
    """q̇ = ½ q_AB ⊗ [0, w_AB_B], shape (4,) [ẇ, ẋ, ẏ, ż]; w_AB_B shape (3,)."""
    w = np.concatenate(([0.0], np.asarray(w_AB_B, dtype=np.float64).reshape(3)))
    return 0.5 * quaternion_multiply(quat_AB.wxyz(), w)


def calculate_angular_velocity_expressed_in_b_from_quaternion_dt(quat_AB, quatDt):
    """w_AB_B = 2 vec(q* ⊗ q̇) / |q|², shape (3,); quatDt shape (4,)."""
    q = quat_AB.wxyz()
    product = quaternion_multiply(quaternion_conjugate(q),
                                  np.asarray(quatDt, dtype=np.float64).reshape(4))
    return 2.0 * product[1:] / (q @ q)


def calculate_quaternion_dt_constraint_violation(quat, quatDt):
    """2 (wẇ + xẋ + yẏ + zż), zero when the rate keeps the norm; a float."""
    return float(2.0 * quat.wxyz() @ np.asarray(quatDt, dtype=np.float64).reshape(4))


def is_quaternion_valid(quat, tolerance):
    """Whether |w² + x² + y² + z² − 1| <= tolerance."""
    q = quat.wxyz()
    return bool(abs(q @ q - 1.0) <= tolerance)


def is_both_quaternion_and_quaternion_dt_ok(quat, quatDt, tolerance):
    """Whether the quaternion is valid and its rate constraint violation is within
    ``tolerance``."""
    return is_quaternion_valid(quat, tolerance) and abs(
        calculate_quaternion_dt_constraint_violation(quat, quatDt)) <= tolerance
