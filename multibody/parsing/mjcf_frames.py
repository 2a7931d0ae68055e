"""MJCF placement: ``pos`` with ``quat``, ``axisangle``, ``euler``, ``xyaxes`` or ``zaxis``.

Angles in ``axisangle`` and ``euler`` are in degrees unless ``<compiler angle="radian">``;
``euler`` follows ``<compiler eulerseq>`` (lower case: rotating axes, upper case: fixed
axes; default ``xyz``). ``quat`` is [w x y z].
"""

from __future__ import annotations

import math

import numpy as np

from merganser.geometry import quaternion_to_rotation_matrix
from merganser.multibody.parsing.mjcf_defaults import ORIENTATIONS
from merganser.multibody.parsing.poses import rotation_closest_to_identity_from_z

__all__ = ["CompilerSettings", "angle_axis_rotation", "euler_rotation", "parse_mjcf_pose"]



class CompilerSettings:
    """The ``<compiler>`` attributes that affect parsing."""

    def __init__(self):
        self.degrees = True
        self.eulerseq = "xyz"
        self.meshdir = ""
        self.autolimits = True
        self.inertiafromgeom = "auto"
        self.mesh_inertia = "legacy"

    def to_radians(self, value):
        """`value` (scalar or array) converted to radians if angles are in degrees."""
        return np.deg2rad(value) if self.degrees else value


def angle_axis_rotation(angle: float, axis) -> np.ndarray:
    """R (3, 3) of a rotation by `angle` (rad) about unit `axis`."""
    k = np.asarray(axis, dtype=np.float64)
    k = k / np.linalg.norm(k)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * (K @ K)


def euler_rotation(values, seq) -> np.ndarray:
    """R (3, 3) of MuJoCo Euler angles `values` (rad) in sequence `seq` (``xyz``: rotating
    axes, ``XYZ``: fixed axes)."""
    R = np.eye(3)
    for angle, axis_name in zip(values, seq):
        axis = np.eye(3)["xyz".index(axis_name.lower())]
        Ri = angle_axis_rotation(angle, axis)
        R = R @ Ri if axis_name.islower() else Ri @ R
    return R


def parse_mjcf_pose(doc, el, compiler: CompilerSettings) -> np.ndarray:
    """X_PE (4, 4) of element `el` in its parent (``pos`` + one orientation)."""
    X = np.eye(4)
    X[:3, 3] = doc.attr_vector(el, "pos", 3, default=np.zeros(3))
    given = [name for name in ORIENTATIONS if doc.has(el, name)]
    if len(given) > 1:
        doc.error(el, f"<{doc.tag(el)}> specifies more than one orientation: {given}")
    if not given:
        return X
    kind = given[0]
    if kind == "quat":
        q = doc.attr_vector(el, "quat", 4)
        if np.linalg.norm(q) < 1e-12:
            doc.error(el, f"quat {q.tolist()} has zero norm")
        X[:3, :3] = quaternion_to_rotation_matrix(q / np.linalg.norm(q))
    elif kind == "axisangle":
        v = doc.attr_vector(el, "axisangle", 4)
        if np.linalg.norm(v[:3]) < 1e-12:
            doc.error(el, f"axisangle axis {v[:3].tolist()} is zero")
        X[:3, :3] = angle_axis_rotation(compiler.to_radians(v[3]), v[:3])
    elif kind == "euler":
        X[:3, :3] = euler_rotation(compiler.to_radians(doc.attr_vector(el, "euler", 3)),
                           compiler.eulerseq)
    elif kind == "xyaxes":
        v = doc.attr_vector(el, "xyaxes", 6)
        x, y = v[:3], v[3:]
        if np.linalg.norm(x) < 1e-12 or np.linalg.norm(y) < 1e-12:
            doc.error(el, f"xyaxes {v.tolist()} has a zero axis")
        x = x / np.linalg.norm(x)
        y = y - (x @ y) * x
        if np.linalg.norm(y) < 1e-12:
            doc.error(el, f"xyaxes {v.tolist()}: the axes are parallel")
        y = y / np.linalg.norm(y)
        X[:3, :3] = np.column_stack([x, y, np.cross(x, y)])
    else:
        z = doc.attr_vector(el, "zaxis", 3)
        if np.linalg.norm(z) < 1e-12:
            doc.error(el, f"zaxis {z.tolist()} is zero")
        X[:3, :3] = rotation_closest_to_identity_from_z(z)
    return X
