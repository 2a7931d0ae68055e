"""Random kinematic trees for testing the dynamics kernels (after spatial_v2's autoTree).

`random_tree` draws a random topology, joint types (every type appears when there are
enough nodes), fixed joint frames X_PF / X_MB, axes, screw pitches and physically valid
inertias (positive mass, rotational inertia satisfying the triangle inequality), with a
fixed or floating base. `random_state` draws a configuration (unit quaternions) and a
velocity for such a model.
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.compiled_model import CompiledModel, JointType, make_compiled_model

__all__ = ["random_inertia", "random_rotation", "random_state", "random_tree"]

_JOINT_TYPES = (JointType.REVOLUTE, JointType.PRISMATIC, JointType.BALL_RPY,
                JointType.UNIVERSAL, JointType.PLANAR, JointType.SCREW,
                JointType.QUATERNION_FLOATING, JointType.RPY_FLOATING, JointType.WELD,
                JointType.BALL_QUATERNION)


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    """Return a uniformly distributed rotation matrix, shape (3, 3)."""
    w, x, y, z = rng.normal(size=4)
    n = np.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def random_inertia(rng: np.random.Generator) -> np.ndarray:
    """Return random valid inertial parameters ``[m, m c, Ixx, Iyy, Izz, Ixy, Ixz, Iyz]``.

    The rotational inertia is about the body origin Bo; the central one has principal
    moments ``(b + c, a + c, a + b)`` for positive a, b, c (triangle inequality holds).
    """
    m = rng.uniform(0.5, 2.0)
    c = rng.uniform(-0.3, 0.3, size=3)
    a = rng.uniform(0.01, 0.2, size=3)
    R = random_rotation(rng)
    I_cm = R @ np.diag([a[1] + a[2], a[0] + a[2], a[0] + a[1]]) @ R.T
    I_o = I_cm + m * (c @ c * np.eye(3) - np.outer(c, c))
    return np.array([m, m * c[0], m * c[1], m * c[2], I_o[0, 0], I_o[1, 1], I_o[2, 2],
                     I_o[0, 1], I_o[0, 2], I_o[1, 2]])


def _random_pose(rng, scale):
    X = np.eye(4)
    X[:3, :3] = random_rotation(rng)
    X[:3, 3] = rng.uniform(-scale, scale, size=3)
    return X


def _depth_first_order(parent):
    children = [[] for _ in parent]
    for k in range(1, len(parent)):
        children[parent[k]].append(k)
    order, stack = [], [0]
    while stack:
        k = stack.pop()
        order.append(k)
        stack.extend(reversed(children[k]))
    return order


def random_tree(num_bodies: int, seed=0, floating_base: bool = False,
                joint_types=None, base_joint=JointType.QUATERNION_FLOATING,
                identity_X_MB_fraction: float = 0.5) -> CompiledModel:
    """Return a random tree with `num_bodies` bodies besides the world.

    Parameters
    ----------
    num_bodies : int
        Number of non-world nodes.
    seed : int or numpy.random.Generator
        Seed of the random draws.
    floating_base : bool
        If True, node 1 is a base body attached to the world by `base_joint` and every
        other body descends from it.
    joint_types : sequence of JointType, optional
        Joint types to draw from, cycled in a shuffled order so that each appears;
        all types (weld, floating and rpy-floating ones included) by default.
    base_joint : JointType
        Joint of the floating base.
    identity_X_MB_fraction : float
        Probability that a joint's X_MB is the identity (as in most URDF models).

    Returns
    -------
    CompiledModel
        A validated model; its ``default_inertia`` holds random valid inertias.
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    n = num_bodies + 1
    types = list(joint_types) if joint_types is not None else list(_JOINT_TYPES)
    rng.shuffle(types)
    parent = np.full(n, -1, dtype=np.int64)
    jtype = np.zeros(n, dtype=np.int64)
    for k in range(1, n):
        if floating_base and k == 1:
            parent[k], jtype[k] = 0, int(base_joint)
            continue
        low = 1 if floating_base else 0
        parent[k] = rng.integers(low, k)
        jtype[k] = int(types[(k - 1) % len(types)])
    # Relabel nodes in depth-first pre-order.
    order = _depth_first_order(parent)
    new_of_old = np.empty(n, dtype=np.int64)
    new_of_old[order] = np.arange(n)
    parent = np.array([-1] + [new_of_old[parent[o]] for o in order[1:]], dtype=np.int64)
    jtype = jtype[order]
    X_PF = np.stack([np.eye(4)] + [_random_pose(rng, 0.5) for _ in range(n - 1)])
    X_MB = np.stack([np.eye(4)] + [
        np.eye(4) if rng.uniform() < identity_X_MB_fraction else _random_pose(rng, 0.3)
        for _ in range(n - 1)])
    axis = np.zeros((n, 3))
    axis[1:] = rng.normal(size=(n - 1, 3))
    axis[jtype == JointType.WELD] = 0.0
    axis[jtype >= JointType.BALL_RPY] = 0.0
    axis[jtype == JointType.SCREW] = rng.normal(size=(int(np.sum(jtype == JointType.SCREW)), 3))
    pitch = np.where(jtype == JointType.SCREW, rng.uniform(-0.5, 0.5, size=n), 0.0)
    inertia = np.zeros((n, 10))
    for k in range(1, n):
        inertia[k] = random_inertia(rng)
    body_index = np.concatenate(([0], 1 + rng.permutation(n - 1)))
    return make_compiled_model(parent, jtype, X_PF=X_PF, X_MB=X_MB, axis=axis,
                               screw_pitch=pitch, default_inertia=inertia,
                               body_index=body_index,
                               node_names=[f"body{b}" for b in body_index])


def random_state(model: CompiledModel, seed=0, scale: float = 1.0):
    """Return a random configuration and velocity for `model`.

    Parameters
    ----------
    model : CompiledModel
        The model.
    seed : int or numpy.random.Generator
        Seed of the random draws.
    scale : float
        Standard deviation of angles, translations and velocities.

    Returns
    -------
    q : ndarray, shape (nq,)
        Positions; quaternions are unit, rpy pitches stay away from +-pi/2.
    v : ndarray, shape (nv,)
        Velocities.
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    q = rng.normal(scale=scale, size=model.nq)
    for k in range(model.nb):
        qs = model.q_start[k]
        if model.jtype[k] in (JointType.QUATERNION_FLOATING, JointType.BALL_QUATERNION):
            quat = rng.normal(size=4)
            q[qs:qs + 4] = quat / np.linalg.norm(quat)
        elif model.jtype[k] in (JointType.BALL_RPY, JointType.RPY_FLOATING):
            q[qs + 1] = np.clip(q[qs + 1], -1.2, 1.2)
    v = rng.normal(scale=scale, size=model.nv)
    return q, v
