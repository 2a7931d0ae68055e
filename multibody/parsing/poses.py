"""Small pose helpers shared by the parsers (4x4 homogeneous matrices, float64)."""

from __future__ import annotations

import numpy as np

from merganser.geometry import RollPitchYaw

__all__ = [
    "inverse_pose",
    "is_identity",
    "pose_from_rotation",
    "pose_from_translation",
    "pose_from_xyz_rpy",
    "rotation_closest_to_identity_from_z",
]


def pose_from_xyz_rpy(xyz, rpy) -> np.ndarray:
    """X_AB (4, 4) from a translation (3,) and roll-pitch-yaw angles (3,) (rad), with
    R = Rz(yaw) Ry(pitch) Rx(roll) as in URDF and Drake."""
    X = np.eye(4)
    X[:3, :3] = RollPitchYaw(*np.asarray(rpy, dtype=np.float64)).to_rotation_matrix().matrix()
    X[:3, 3] = xyz
    return X


def pose_from_translation(p) -> np.ndarray:
    """X (4, 4) with identity rotation and translation `p` (3,)."""
    X = np.eye(4)
    X[:3, 3] = p
    return X


def pose_from_rotation(R) -> np.ndarray:
    """X (4, 4) with rotation `R` (3, 3) and zero translation."""
    X = np.eye(4)
    X[:3, :3] = R
    return X


def inverse_pose(X: np.ndarray) -> np.ndarray:
    """X⁻¹ of a rigid transform (4, 4)."""
    R, p = X[:3, :3], X[:3, 3]
    Xi = np.eye(4)
    Xi[:3, :3] = R.T
    Xi[:3, 3] = -(R.T @ p)
    return Xi


def is_identity(X: np.ndarray) -> bool:
    """True if X is exactly the identity (as Drake's IsExactlyIdentity)."""
    return bool(np.array_equal(X, np.eye(4)))


def rotation_closest_to_identity_from_z(z) -> np.ndarray:
    """R_AB (3, 3) whose z column is the unit vector `z` (3,), the rotation closest to
    the identity with that property (a rotation about z × Bz by the angle between them)."""
    z = np.asarray(z, dtype=np.float64)
    z = z / np.linalg.norm(z)
    c = float(z[2])
    axis = np.array([-z[1], z[0], 0.0])  # e_z × z
    s = float(np.linalg.norm(axis))
    if s < 1e-14:
        return np.eye(3) if c > 0.0 else np.diag([1.0, -1.0, -1.0])
    k = axis / s
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + s * K + (1.0 - c) * (K @ K)
