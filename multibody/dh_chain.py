"""Denavit-Hartenberg chains: bodies and joints added to a MultibodyPlant from a DH table.

Each row (a, alpha, d, theta) describes one joint and the link after it. With the
standard (distal) convention the transform from DH frame i-1 to DH frame i is

    T_{i-1,i} = Rz(θ_i + q_i) Tz(d_i) Tx(a_i) Rx(α_i)                (revolute)
    T_{i-1,i} = Rz(θ_i) Tz(d_i + q_i) Tx(a_i) Rx(α_i)                (prismatic)

and joint i moves about / along z_{i-1}. With the modified (proximal, Craig) convention a
row holds (a_{i-1}, α_{i-1}, d_i, θ_i) and

    T_{i-1,i} = Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i + q_i) Tz(d_i)        (revolute)
    T_{i-1,i} = Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i + q_i)        (prismatic)

so joint i moves about / along z_i. In both cases T = X_F · J(q) · X_MB with a fixed part
X_F before the joint (Rz(θ), resp. Rx(α) Tx(a) Rz(θ)), the joint J about z and a fixed
part X_MB after it (Tz(d) Tx(a) Rx(α), resp. Tz(d)), since Rz and Tz commute. The builder
therefore adds, for each row, a frame F at X_F on the previous link, a body whose frame
is DH frame i, a frame M on it at X_MB⁻¹ and a joint from F to M with axis z.

References
----------
J. Denavit and R. S. Hartenberg, "A kinematic notation for lower-pair mechanisms based on
matrices", J. Applied Mechanics 22, 1955; J. J. Craig, Introduction to Robotics, 3rd ed.,
ch. 3 (modified convention).
"""

from dataclasses import dataclass

import numpy as np

from merganser.geometry import RigidTransform
from merganser.multibody.math import SpatialInertia
from merganser.multibody.tree import FixedOffsetFrame, Frame, PrismaticJoint, RevoluteJoint

__all__ = ["DhChain", "add_dh_chain", "dh_transform"]

_TYPES = ("revolute", "prismatic")


def _rz(theta):
    c, s = np.cos(theta), np.sin(theta)
    X = np.eye(4)
    X[:2, :2] = [[c, -s], [s, c]]
    return X


def _rx(alpha):
    c, s = np.cos(alpha), np.sin(alpha)
    X = np.eye(4)
    X[1:3, 1:3] = [[c, -s], [s, c]]
    return X


def _translation(x=0.0, z=0.0):
    X = np.eye(4)
    X[0, 3], X[2, 3] = x, z
    return X


def _fixed_parts(a, alpha, d, theta, modified):
    """(X_F, X_MB) (4, 4) of one row: T = X_F · J(q) · X_MB (see the module docstring)."""
    if modified:
        return _rx(alpha) @ _translation(x=a) @ _rz(theta), _translation(z=d)
    return _rz(theta), _translation(z=d) @ _translation(x=a) @ _rx(alpha)


def dh_transform(a, alpha, d, theta, modified=False):
    """The (4, 4) homogeneous transform T_{i-1,i} of one DH row (joint variable included
    in theta or d by the caller).

    Parameters
    ----------
    a, alpha, d, theta : float
        Link length (m), link twist (rad), link offset (m), joint angle (rad).
    modified : bool
        Craig's modified convention Rx(α) Tx(a) Rz(θ) Tz(d) instead of the standard
        Rz(θ) Tz(d) Tx(a) Rx(α).
    """
    X_F, X_MB = _fixed_parts(float(a), float(alpha), float(d), float(theta), modified)
    return X_F @ X_MB


@dataclass
class DhChain:
    """What `add_dh_chain` added.

    Attributes
    ----------
    bodies : list[RigidBody]
        Link i's body (its body frame is DH frame i), i = 1..n.
    joints : list[Joint]
        Joint i (RevoluteJoint or PrismaticJoint), i = 1..n.
    frames : list[Frame]
        DH frames 0..n: the base frame, then the bodies' frames.
    end_effector_frame : Frame
        DH frame n, or the tool frame when a tool transform was given.
    """

    bodies: list
    joints: list
    frames: list
    end_effector_frame: Frame


def _table(fn, dh_table):
    try:
        rows = np.array(dh_table, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: dh_table must be a table of numbers (n, 4), got "
                        f"{type(dh_table).__name__}") from None
    if rows.ndim != 2 or rows.shape[1] != 4 or rows.shape[0] < 1:
        raise ValueError(f"{fn}: dh_table must have shape (n, 4) with rows (a, alpha, d, "
                         f"theta) and n >= 1, got shape {rows.shape}")
    if not np.all(np.isfinite(rows)):
        raise ValueError(f"{fn}: dh_table must be finite, got {rows.tolist()}")
    return rows


def _per_row(fn, arg, value, n, default):
    if value is None:
        return [default] * n
    if isinstance(value, str) or not hasattr(value, "__len__"):
        return [value] * n
    values = list(value)
    if len(values) != n:
        raise ValueError(f"{fn}: {arg} has {len(values)} entries, expected one per DH row "
                         f"({n})")
    return values


def add_dh_chain(plant, dh_table, *, joint_types="revolute", modified=False,
                 parent_frame=None, X_PB=None, tool_transform=None, spatial_inertias=None,
                 position_limits=None, name_prefix="", model_instance=None,
                 add_actuators=True):
    """Add a serial chain described by a Denavit-Hartenberg table to `plant`.

    Parameters
    ----------
    plant : MultibodyPlant
        Not yet finalized.
    dh_table : array_like, shape (n, 4)
        Rows (a, alpha, d, theta) in m and rad (modified: (a_{i-1}, α_{i-1}, d_i, θ_i)).
        θ (revolute) or d (prismatic) is the offset added to the joint coordinate.
    joint_types : str or sequence of str
        "revolute" or "prismatic", for all rows or per row.
    modified : bool
        Use Craig's modified (proximal) convention.
    parent_frame : Frame, optional
        Frame the chain is attached to (the world frame by default).
    X_PB : RigidTransform, optional
        Pose of DH base frame 0 in `parent_frame` (identity by default).
    tool_transform : RigidTransform, optional
        Pose of a tool frame in DH frame n; adds frame ``<prefix>tool``.
    spatial_inertias : SpatialInertia or sequence of SpatialInertia, optional
        M_BBo_B of each link about its DH frame origin; by default a 1 kg solid sphere
        of radius 0.05 m centered at the frame origin.
    position_limits : sequence of (lower, upper) or None, optional
        Joint limits per row (rad or m); None entries mean unlimited.
    name_prefix : str
        Prefix for the names ``link1..n``, ``joint1..n``, ``dh_frame0``, ``tool``.
    model_instance : int, optional
        Model instance of the bodies (the default model instance when omitted).
    add_actuators : bool
        Add an actuator (named after its joint) to every joint.

    Returns
    -------
    DhChain
    """
    fn = "add_dh_chain"
    rows = _table(fn, dh_table)
    n = len(rows)
    types = _per_row(fn, "joint_types", joint_types, n, "revolute")
    for i, t in enumerate(types):
        if t not in _TYPES:
            raise ValueError(f"{fn}: joint_types[{i}] must be one of {_TYPES}, got {t!r}")
    inertias = _per_row(fn, "spatial_inertias", spatial_inertias, n,
                        SpatialInertia.solid_sphere_with_mass(1.0, 0.05))
    limits = _per_row(fn, "position_limits", position_limits, n, None)
    parent = plant.world_frame() if parent_frame is None else parent_frame
    if not isinstance(parent, Frame):
        raise TypeError(f"{fn}: parent_frame must be a Frame, got {type(parent).__name__}")
    if X_PB is not None:
        parent = plant.add_frame(FixedOffsetFrame(f"{name_prefix}dh_frame0", parent, X_PB))
    frames, bodies, joints = [parent], [], []
    for i, ((a, alpha, d, theta), kind) in enumerate(zip(rows, types), start=1):
        X_F, X_MB = _fixed_parts(a, alpha, d, theta, modified)
        args = (name_prefix + f"link{i}",) if model_instance is None else (
            name_prefix + f"link{i}", model_instance)
        body = plant.add_rigid_body(*args, inertias[i - 1])
        F = parent if np.allclose(X_F, np.eye(4)) else plant.add_frame(FixedOffsetFrame(
            f"{name_prefix}joint{i}_parent", parent, RigidTransform(X_F)))
        M = body.body_frame() if np.allclose(X_MB, np.eye(4)) else plant.add_frame(
            FixedOffsetFrame(f"{name_prefix}joint{i}_child", body.body_frame(),
                             RigidTransform(X_MB).inverse()))
        lo, hi = (-np.inf, np.inf) if limits[i - 1] is None else limits[i - 1]
        name = f"{name_prefix}joint{i}"
        if kind == "revolute":
            joint = RevoluteJoint(name, F, M, [0.0, 0.0, 1.0], pos_lower_limit=lo,
                                  pos_upper_limit=hi)
        else:
            joint = PrismaticJoint(name, F, M, [0.0, 0.0, 1.0], pos_lower_limit=lo,
                                   pos_upper_limit=hi)
        joints.append(plant.add_joint(joint))
        if add_actuators:
            plant.add_joint_actuator(name, joints[-1])
        bodies.append(body)
        frames.append(body.body_frame())
        parent = body.body_frame()
    end = frames[-1]
    if tool_transform is not None:
        end = plant.add_frame(FixedOffsetFrame(f"{name_prefix}tool", end, tool_transform))
    return DhChain(bodies=bodies, joints=joints, frames=frames, end_effector_frame=end)
