"""The compiled multibody model: the flat struct of arrays read by the kernels.

`CompiledModel` is what ``MultibodyPlant.finalize()`` produces from the user-facing
bodies and joints (Featherstone's model struct, Pinocchio's ``Model``). It is immutable,
holds only numpy arrays and integers, and is the contract between the tree and the
numba kernels in ``multibody/kernels``; ``docs/compiled_model.md`` documents every field.

Nodes (mobilized bodies) are numbered in depth-first pre-order with the world as node 0,
so ``parent[k] < k``; the pose of node k's body B in its parent's body frame P is
``X_PB(q) = X_PF[k] @ X_FM(jtype[k], q) @ X_MB[k]``.
"""

from __future__ import annotations

import dataclasses
import enum
import functools

import numpy as np

__all__ = [
    "JointType",
    "JOINT_NQ",
    "JOINT_NV",
    "CompiledModel",
    "CompiledModelError",
    "make_compiled_model",
]


class JointType(enum.IntEnum):
    """Joint (mobilizer) type codes used in `CompiledModel.jtype`."""

    WELD = 0
    REVOLUTE = 1
    PRISMATIC = 2
    BALL_RPY = 3
    UNIVERSAL = 4
    PLANAR = 5
    SCREW = 6
    QUATERNION_FLOATING = 7
    RPY_FLOATING = 8
    BALL_QUATERNION = 9


#: Number of generalized positions of each joint type, indexed by the type code.
JOINT_NQ = np.array([0, 1, 1, 3, 2, 3, 1, 7, 6, 4], dtype=np.int64)
#: Number of generalized velocities of each joint type, indexed by the type code.
JOINT_NV = np.array([0, 1, 1, 3, 2, 3, 1, 6, 6, 3], dtype=np.int64)
JOINT_NQ.flags.writeable = False
JOINT_NV.flags.writeable = False

_AXIS_JOINTS = (JointType.REVOLUTE, JointType.PRISMATIC, JointType.SCREW)


class CompiledModelError(ValueError):
    """A `CompiledModel` has inconsistent fields (sizes, ordering, transforms)."""


def _frozen(a, dtype):
    arr = np.ascontiguousarray(a, dtype=dtype)
    if arr is a:
        arr = arr.copy()
    arr.flags.writeable = False
    return arr


@dataclasses.dataclass(frozen=True, eq=False)
class CompiledModel:
    """Immutable flat description of a multibody tree, in node order.

    All arrays are C-contiguous, read-only, float64 or int64. ``nb`` counts the world.

    Attributes
    ----------
    nb, nq, nv : int
        Number of nodes (world included), generalized positions and velocities.
    parent : ndarray of int64, shape (nb,)
        Parent node of each node; ``parent[0] = -1`` and ``parent[k] < k``.
    body_index : ndarray of int64, shape (nb,)
        Body index (order of addition, world = 0) of each node's body.
    node_of_body : ndarray of int64, shape (nb,)
        Inverse of `body_index`: the node of each body.
    jtype : ndarray of int64, shape (nb,)
        `JointType` code of each node's inboard joint (world: WELD).
    X_PF : ndarray, shape (nb, 4, 4)
        Pose of the joint's parent-side frame F in the parent node's body frame P.
    X_MB : ndarray, shape (nb, 4, 4)
        Pose of the node's body frame B in the joint's child-side frame M.
    axis : ndarray, shape (nb, 3)
        Unit joint axis expressed in F for REVOLUTE, PRISMATIC and SCREW; zeros otherwise.
    screw_pitch : ndarray, shape (nb,)
        Translation in metres per revolution of SCREW joints (zero otherwise).
    q_start, nq_j : ndarray of int64, shape (nb,)
        First position index and number of positions of each node's joint.
    v_start, nv_j : ndarray of int64, shape (nb,)
        First velocity index and number of velocities of each node's joint.
    default_inertia : ndarray, shape (nb, 10)
        Default inertial parameters ``[m, m cx, m cy, m cz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz]``
        of each node's body, with ``c = p_BoBcm_B`` and the rotational inertia ``I_BBo_B``
        about the body origin, expressed in B. The world's row is zero.
    damping : ndarray, shape (nv,)
        Viscous damping of each generalized velocity (not used by the kernels).
    q_lower, q_upper : ndarray, shape (nq,)
        Position limits (``-inf`` / ``+inf`` when there is none).
    node_names : tuple of str
        Optional node (body) names, used in error messages; empty or of length nb.

    Notes
    -----
    A welded body moves rigidly with its nearest non-welded ancestor, its *composite*
    node (`composite_node`, the world for bodies welded to the world): the kernels
    treat the two as one composite body (`X_CB` gives the fixed offset), see
    ``docs/compiled_model.md``.
    """

    nb: int
    nq: int
    nv: int
    parent: np.ndarray
    body_index: np.ndarray
    node_of_body: np.ndarray
    jtype: np.ndarray
    X_PF: np.ndarray
    X_MB: np.ndarray
    axis: np.ndarray
    screw_pitch: np.ndarray
    q_start: np.ndarray
    nq_j: np.ndarray
    v_start: np.ndarray
    nv_j: np.ndarray
    default_inertia: np.ndarray
    damping: np.ndarray
    q_lower: np.ndarray
    q_upper: np.ndarray
    node_names: tuple = ()

    _INT_FIELDS = ("parent", "body_index", "node_of_body", "jtype", "q_start", "nq_j",
                   "v_start", "nv_j")
    _FLOAT_FIELDS = ("X_PF", "X_MB", "axis", "screw_pitch", "default_inertia", "damping",
                     "q_lower", "q_upper")

    def __post_init__(self):
        for name in ("nb", "nq", "nv"):
            object.__setattr__(self, name, int(getattr(self, name)))
        for name in self._INT_FIELDS:
            object.__setattr__(self, name, _frozen(getattr(self, name), np.int64))
        for name in self._FLOAT_FIELDS:
            object.__setattr__(self, name, _frozen(getattr(self, name), np.float64))
        object.__setattr__(self, "node_names", tuple(str(s) for s in self.node_names))

    # ------------------------------------------------------------------ welded bodies
    @functools.cached_property
    def composite_node(self) -> np.ndarray:
        """Composite node of each node, int64 (nb,) (read-only).

        Node k itself unless its joint is a WELD; then the composite node of its
        parent (so a chain of welds ends at the nearest non-welded ancestor, or at the
        world, node 0). Requires a valid topology (`validate`).
        """
        c = np.arange(self.nb, dtype=np.int64)
        for k in range(1, self.nb):
            if self.jtype[k] == JointType.WELD:
                c[k] = c[self.parent[k]]
        c.flags.writeable = False
        return c

    @functools.cached_property
    def X_CB(self) -> np.ndarray:
        """Pose of each node's body B in its composite node's body frame C, (nb, 4, 4).

        The identity for non-welded nodes; ``X_CB[k] = X_CB[parent[k]] @ X_PF[k] @
        X_MB[k]`` for a welded node k (read-only).
        """
        X = np.tile(np.eye(4), (self.nb, 1, 1))
        for k in range(1, self.nb):
            if self.jtype[k] == JointType.WELD:
                X[k] = X[self.parent[k]] @ self.X_PF[k] @ self.X_MB[k]
                X[k, 3] = (0.0, 0.0, 0.0, 1.0)
        X.flags.writeable = False
        return X

    # ------------------------------------------------------------------ helpers
    def node_name(self, k: int) -> str:
        """Return ``"node k ('name')"`` for error messages."""
        if self.node_names:
            return f"node {k} ({self.node_names[k]!r})"
        return f"node {k}"

    def _fail(self, message: str):
        raise CompiledModelError(f"CompiledModel.validate: {message}")

    def _check_shapes(self):
        nb, nq, nv = self.nb, self.nq, self.nv
        if nb < 1:
            self._fail(f"nb is {nb}, expected at least 1 (the world)")
        expected = {
            "parent": (nb,), "body_index": (nb,), "node_of_body": (nb,), "jtype": (nb,),
            "X_PF": (nb, 4, 4), "X_MB": (nb, 4, 4), "axis": (nb, 3), "screw_pitch": (nb,),
            "q_start": (nb,), "nq_j": (nb,), "v_start": (nb,), "nv_j": (nb,),
            "default_inertia": (nb, 10), "damping": (nv,), "q_lower": (nq,),
            "q_upper": (nq,),
        }
        for name, shape in expected.items():
            got = getattr(self, name).shape
            if got != shape:
                self._fail(f"field {name!r} has shape {got}, expected {shape}")
        if self.node_names and len(self.node_names) != nb:
            self._fail(f"node_names has {len(self.node_names)} entries, expected nb = {nb}")

    def _check_topology(self):
        parent = self.parent
        if parent[0] != -1:
            self._fail(f"parent[0] is {parent[0]}, expected -1 (node 0 is the world)")
        for k in range(1, self.nb):
            if not 0 <= parent[k] < k:
                self._fail(f"{self.node_name(k)} has parent {parent[k]}, expected "
                           f"0 <= parent < {k} (nodes must be in depth-first pre-order)")
            # Depth-first pre-order: the parent of k is k-1 or an ancestor of k-1.
            a = k - 1
            while a > parent[k]:
                a = parent[a]
            if a != parent[k]:
                self._fail(f"{self.node_name(k)} with parent {parent[k]} breaks depth-first "
                           f"pre-order: its parent is not an ancestor of node {k - 1}")
        nbody = self.nb
        if sorted(self.body_index.tolist()) != list(range(nbody)):
            self._fail("body_index is not a permutation of 0..nb-1")
        for k in range(nbody):
            if self.node_of_body[self.body_index[k]] != k:
                self._fail(f"node_of_body[body_index[{k}]] is "
                           f"{self.node_of_body[self.body_index[k]]}, expected {k}")
        if self.body_index[0] != 0:
            self._fail(f"body_index[0] is {self.body_index[0]}, expected 0 (the world body)")

    def _check_joints(self):
        jt = self.jtype
        if jt[0] != JointType.WELD:
            self._fail(f"jtype[0] is {jt[0]}, expected WELD (0) for the world")
        for k in range(self.nb):
            if not 0 <= jt[k] < len(JOINT_NQ):
                self._fail(f"{self.node_name(k)} has unknown joint type code {jt[k]}; "
                           f"valid codes are {[int(t) for t in JointType]}")
            if self.nq_j[k] != JOINT_NQ[jt[k]] or self.nv_j[k] != JOINT_NV[jt[k]]:
                self._fail(f"{self.node_name(k)} ({JointType(jt[k]).name}) has nq_j, nv_j = "
                           f"{self.nq_j[k]}, {self.nv_j[k]}, expected {JOINT_NQ[jt[k]]}, "
                           f"{JOINT_NV[jt[k]]}")
            if jt[k] in _AXIS_JOINTS:
                n = float(np.linalg.norm(self.axis[k]))
                if abs(n - 1.0) > 1e-9:
                    self._fail(f"{self.node_name(k)} ({JointType(jt[k]).name}) has axis "
                               f"{self.axis[k].tolist()} of norm {n}, expected a unit vector")
        for name, starts, counts, total in (("q", self.q_start, self.nq_j, self.nq),
                                            ("v", self.v_start, self.nv_j, self.nv)):
            covered = np.zeros(total, dtype=np.int64)
            for k in range(self.nb):
                s, n = int(starts[k]), int(counts[k])
                if s < 0 or s + n > total:
                    self._fail(f"{self.node_name(k)} has {name}_start = {s} and {n} "
                               f"coordinates, outside 0..n{name} = {total}")
                covered[s:s + n] += 1
            if np.any(covered != 1):
                bad = int(np.flatnonzero(covered != 1)[0])
                self._fail(f"index {bad} of {name} is covered {covered[bad]} times by the "
                           f"nodes' {name}_start/n{name}_j ranges, expected exactly once")

    def _check_transforms(self):
        for name in ("X_PF", "X_MB"):
            X = getattr(self, name)
            for k in range(self.nb):
                R = X[k, :3, :3]
                if (not np.all(np.isfinite(X[k]))
                        or np.abs(R.T @ R - np.eye(3)).max() > 1e-9
                        or np.linalg.det(R) < 0.0
                        or np.abs(X[k, 3] - (0.0, 0.0, 0.0, 1.0)).max() > 0.0):
                    self._fail(f"{name}[{k}] of {self.node_name(k)} is not a rigid transform "
                               "(expected a proper rotation and last row [0, 0, 0, 1])")
        if np.any(self.default_inertia[0] != 0.0):
            self._fail("default_inertia[0] (the world) must be zero")
        # A row that is all NaN is Drake's "not set" (SpatialInertia.NaN()): accepted.
        rows_set = ~np.isnan(self.default_inertia).all(axis=1)
        if not np.all(np.isfinite(self.default_inertia[rows_set])):
            self._fail("default_inertia contains non-finite values")

    def validate(self) -> "CompiledModel":
        """Check shapes, node order, joint tables and transforms.

        Returns
        -------
        CompiledModel
            ``self``, so that ``model = CompiledModel(...).validate()`` chains.

        Raises
        ------
        CompiledModelError
            Naming the field (and the node) that is inconsistent.
        """
        self._check_shapes()
        self._check_topology()
        self._check_joints()
        self._check_transforms()
        return self


def _stack_transforms(X, nb, name):
    if X is None:
        return np.tile(np.eye(4), (nb, 1, 1))
    X = np.asarray(X, dtype=np.float64)
    if X.shape != (nb, 4, 4):
        raise CompiledModelError(
            f"make_compiled_model: {name} has shape {X.shape}, expected ({nb}, 4, 4)")
    return X


def make_compiled_model(parent, jtype, X_PF=None, X_MB=None, axis=None, screw_pitch=None,
                        default_inertia=None, damping=None, q_lower=None, q_upper=None,
                        body_index=None, node_names=()) -> CompiledModel:
    """Build and validate a `CompiledModel`, filling every omitted field with its default.

    Positions and velocities are numbered contiguously in node order.

    Parameters
    ----------
    parent : array_like of int, shape (nb,)
        Parent of each node, ``parent[0] = -1``.
    jtype : array_like of int, shape (nb,)
        `JointType` code of each node (``jtype[0]`` must be WELD).
    X_PF, X_MB : array_like, shape (nb, 4, 4), optional
        Fixed joint frame poses; identity by default.
    axis : array_like, shape (nb, 3), optional
        Joint axes in F (normalized here); zeros by default.
    screw_pitch : array_like, shape (nb,), optional
        Screw pitch in metres per revolution; zeros by default.
    default_inertia : array_like, shape (nb, 10), optional
        Inertial parameters, see `CompiledModel`; zeros by default.
    damping : array_like, shape (nv,), optional
        Joint damping; zeros by default.
    q_lower, q_upper : array_like, shape (nq,), optional
        Position limits; -inf / +inf by default.
    body_index : array_like of int, shape (nb,), optional
        Body index of each node; ``arange(nb)`` by default.
    node_names : sequence of str, optional
        Names used in error messages.

    Returns
    -------
    CompiledModel
        The validated model.
    """
    parent = np.asarray(parent, dtype=np.int64)
    jtype = np.asarray(jtype, dtype=np.int64)
    nb = parent.shape[0]
    if jtype.shape != (nb,):
        raise CompiledModelError(
            f"make_compiled_model: jtype has shape {jtype.shape}, expected ({nb},)")
    if np.any((jtype < 0) | (jtype >= len(JOINT_NQ))):
        raise CompiledModelError(
            f"make_compiled_model: jtype contains unknown codes {jtype.tolist()}; "
            f"valid codes are {[int(t) for t in JointType]}")
    nq_j = JOINT_NQ[jtype]
    nv_j = JOINT_NV[jtype]
    q_start = np.concatenate(([0], np.cumsum(nq_j)[:-1])).astype(np.int64)
    v_start = np.concatenate(([0], np.cumsum(nv_j)[:-1])).astype(np.int64)
    nq, nv = int(nq_j.sum()), int(nv_j.sum())
    if axis is None:
        axis = np.zeros((nb, 3))
    else:
        axis = np.array(axis, dtype=np.float64).reshape(nb, 3)
        norms = np.linalg.norm(axis, axis=1)
        axis[norms > 0] /= norms[norms > 0, None]
    if body_index is None:
        body_index = np.arange(nb, dtype=np.int64)
    body_index = np.asarray(body_index, dtype=np.int64)
    node_of_body = np.zeros(nb, dtype=np.int64)
    if sorted(body_index.tolist()) == list(range(nb)):
        node_of_body[body_index] = np.arange(nb)
    model = CompiledModel(
        nb=nb, nq=nq, nv=nv, parent=parent, body_index=body_index,
        node_of_body=node_of_body, jtype=jtype,
        X_PF=_stack_transforms(X_PF, nb, "X_PF"), X_MB=_stack_transforms(X_MB, nb, "X_MB"),
        axis=axis,
        screw_pitch=np.zeros(nb) if screw_pitch is None else screw_pitch,
        q_start=q_start, nq_j=nq_j, v_start=v_start, nv_j=nv_j,
        default_inertia=np.zeros((nb, 10)) if default_inertia is None else default_inertia,
        damping=np.zeros(nv) if damping is None else damping,
        q_lower=np.full(nq, -np.inf) if q_lower is None else q_lower,
        q_upper=np.full(nq, np.inf) if q_upper is None else q_upper,
        node_names=tuple(node_names))
    return model.validate()
