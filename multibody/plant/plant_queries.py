"""Kinematic queries of MultibodyPlant: body poses and velocities, relative transforms,
Jacobians, bias accelerations and the q̇ = N(q) v maps.

``eval_*`` methods read the plant's cache entries (recomputed only when the state
changed); ``calc_*`` methods compute. Jacobians follow Drake: the spatial velocity of a
point Bp fixed to frame B, measured in frame A and expressed in frame E, is
``V_ABp_E = J v`` (``JacobianWrtVariable.kV``) or ``J q̇`` (``kQDot``); spatial vectors are
[rotational; translational].

With the plant's own context, `eval_body_pose_in_world` and
`calc_jacobian_spatial_velocity` (kV) take a fast path: the body's or frames' nodes come
from a memo filled after the first full argument check, and each is one fused kernel call
reading q where the Context stores it and computing the poses on the paths from the world
to the nodes it needs only (`multibody.kernels.queries`). Neither reads nor fills a cache
entry, so the next state write need not walk the dependents (`framework.cache`). The
kernels are bound to the Context at its first fast query (`bind_fast_queries`: the
compiled entry point with the packed model, the Context's q and a workspace of its own),
so a call passes only its own arguments. Each fast path keeps its last result on the
Context and rewrites it in place at the next call when nothing else references it (the
pose, its RotationMatrix, and both arrays, by `sys.getrefcount`: a view of an array, a
RigidTransform copied from the pose or a kept rotation all count), else returns new
arrays: a result the caller keeps is never changed by a later query.
"""

import sys

import numpy as np

from merganser.geometry import RigidTransform, RotationMatrix
from merganser.multibody.math import SpatialAcceleration, SpatialVelocity
from merganser.multibody.plant.jacobian_wrt_variable import JacobianWrtVariable
from merganser.multibody.plant.query_tables import (
    FAST_JACOBIAN, FAST_JACOBIAN_CALL, FAST_POSE, FAST_POSE_CALL, VIEW_FAST, bind_fast_queries,
)

__all__ = ["PlantQueriesMixin", "rigid_transform"]

_ND = np.ndarray
_F64 = np.dtype(np.float64)
_SHAPE3 = (3,)
_SHAPE33 = (3, 3)
_empty = np.empty
_I3 = np.eye(3)
_KV = JacobianWrtVariable.kV
_new = object.__new__
_frombuffer = np.frombuffer
_refcount = sys.getrefcount


def _held_count():
    """`sys.getrefcount` of an object referenced by one list slot and one local name (the
    count includes the call's own argument): a result the fast paths kept and the caller
    dropped. -1 (never reuse a result) where the count is not exact: off CPython, from
    3.14 (whose interpreter may borrow the references of locals on its stack) and without
    the GIL."""
    if (sys.implementation.name != "cpython" or sys.version_info >= (3, 14)
            or not getattr(sys, "_is_gil_enabled", lambda: True)()):
        return -1
    slot = [object()]
    result = slot[0]
    count = _refcount(result)
    return count if count == 3 else -1


_HELD = _held_count()


def rigid_transform(X):
    """RigidTransform from a (4, 4) pose known to be rigid (copies, no validation).

    The copies are made read-only at creation (arrays over immutable bytes), which costs
    less than setting the flag of a copy: this is on the path of every pose query.
    """
    R = _new(RotationMatrix)
    R._R = _frombuffer(X[:3, :3].tobytes()).reshape(3, 3)
    pose = _new(RigidTransform)
    pose._R = R
    pose._p = _frombuffer(X[:3, 3].tobytes())
    return pose


def _points(fn, arg, p):
    """`p` as a (3, n) float64 array ((3,) gives n = 1)."""
    try:
        a = np.array(p, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {arg} must be an array of numbers, got {type(p).__name__}") \
            from None
    if a.shape == (3,):
        return a.reshape(3, 1)
    if a.ndim != 2 or a.shape[0] != 3:
        raise ValueError(f"{fn}: {arg} has shape {a.shape}, expected (3,) or (3, n)")
    return a


def _point(fn, arg, p):
    a = _points(fn, arg, p)
    if a.shape[1] != 1:
        raise ValueError(f"{fn}: {arg} has shape {a.shape}, expected (3,)")
    return a[:, 0].copy()


class PlantQueriesMixin:
    """Kinematics queries (see the module docstring)."""

    # ---- bodies ------------------------------------------------------------------------
    def _body_node(self, body, fn):
        self._check_body(body, fn)
        node = int(self._tables.node_of_body[body.index()])
        qt = self._qt
        if qt is not None:
            qt.node_of_body[body] = node        # checked: later calls skip the checks
        return node

    def eval_body_pose_in_world(self, context, body):
        """X_WB (RigidTransform), the pose of `body`'s frame in world.

        With the plant's own context and a body seen before, one kernel call computes it
        from the state (no cache entry is read or made valid, so the next state write
        need not walk the dependents).
        """
        try:                    # the plant's own context, with its remembered state views
            views = context._plant_state_views
            node = self._qt.node_of_body.get(body)
            own = context._system is self
        except (AttributeError, TypeError):     # no views or QueryTables yet; unhashable
            own = False
        if own and node is not None and views is not None:
            fast = views[VIEW_FAST]
            pose = fast[FAST_POSE]
            if pose is not None and _refcount(pose) == _HELD:
                # the last pose, referenced by `fast` and here only: its arrays are
                # rewritten unless its rotation or an array is referenced elsewhere too
                rotation = pose._R
                R, p = rotation._R, pose._p
                if (_refcount(rotation) == _HELD and _refcount(R) == _HELD
                        and _refcount(p) == _HELD):
                    fast[FAST_POSE_CALL](node, R, p)
                    return pose
            R, p = _empty(_SHAPE33), _empty(_SHAPE3)
            (fast[FAST_POSE_CALL] or bind_fast_queries(self._qt, views)[FAST_POSE_CALL])(
                node, R, p)
            # R and p are new arrays only this pose references, R a rotation: wrapped
            # without validation or copy (the accessors return copies)
            rotation, pose = _new(RotationMatrix), _new(RigidTransform)
            rotation._R = R
            pose._R, pose._p = rotation, p
            fast[FAST_POSE] = pose
            return pose
        fn = "eval_body_pose_in_world"
        ctx = self._ctx(context, fn)
        self._query_tables()
        self._own_state_views(ctx)              # remembered for the next calls
        return rigid_transform(self._eval_X_WB(ctx)[self._body_node(body, fn)])

    def eval_body_spatial_velocity_in_world(self, context, body):
        """V_WB_W = [w_WB_W; v_WBo_W] (SpatialVelocity) of `body`."""
        fn = "eval_body_spatial_velocity_in_world"
        ctx = self._ctx(context, fn)
        return SpatialVelocity(self._eval_V_WB(ctx)[self._body_node(body, fn)].copy())

    def eval_body_spatial_acceleration_in_world(self, context, body):
        """A_WB_W = [alpha_WB_W; a_WBo_W] (SpatialAcceleration) of `body`, from the forward
        dynamics of `context` (a_WBo_W is the classical acceleration of Bo)."""
        fn = "eval_body_spatial_acceleration_in_world"
        ctx = self._ctx(context, fn)
        A = self._cache.acceleration.eval(ctx).A_WB
        return SpatialAcceleration(A[self._body_node(body, fn)].copy())

    # ---- frames ------------------------------------------------------------------------
    def _X_WF(self, ctx, frame, fn, arg):
        """(4, 4) pose of `frame` in world in `ctx`, and its node."""
        node, X_BF = self._frame_node(frame, fn, arg)
        if X_BF is not None and self._frame_poses(ctx):      # poses set in this Context
            X_BF = self._frame_X_BF(ctx, frame)
        X_WB = self._eval_X_WB(ctx)[node]
        return (X_WB if X_BF is None else X_WB @ X_BF), node

    def calc_relative_transform(self, context, frame_A, frame_B):
        """X_AB (RigidTransform), the pose of frame B in frame A."""
        fn = "calc_relative_transform"
        ctx = self._ctx(context, fn)
        X_WA, _ = self._X_WF(ctx, frame_A, fn, "frame_A")
        X_WB, _ = self._X_WF(ctx, frame_B, fn, "frame_B")
        R_AW = X_WA[:3, :3].T
        X = np.eye(4)
        X[:3, :3] = R_AW @ X_WB[:3, :3]
        X[:3, 3] = R_AW @ (X_WB[:3, 3] - X_WA[:3, 3])
        return rigid_transform(X)

    def calc_relative_rotation_matrix(self, context, frame_A, frame_B):
        """R_AB (RotationMatrix), the orientation of frame B in frame A."""
        return self.calc_relative_transform(context, frame_A, frame_B).rotation()

    def calc_points_positions(self, context, frame_B, p_BQi, frame_A):
        """Positions p_AQi (3, n) in frame A of points Qi given by p_BQi (3, n) in frame B."""
        fn = "calc_points_positions"
        ctx = self._ctx(context, fn)
        p = _points(fn, "p_BQi", p_BQi)
        X_WA, _ = self._X_WF(ctx, frame_A, fn, "frame_A")
        X_WB, _ = self._X_WF(ctx, frame_B, fn, "frame_B")
        p_WQ = X_WB[:3, :3] @ p + X_WB[:3, 3:4]
        return X_WA[:3, :3].T @ (p_WQ - X_WA[:3, 3:4])

    # ---- Jacobians ---------------------------------------------------------------------
    def _wrt(self, with_respect_to, fn):
        if not isinstance(with_respect_to, JacobianWrtVariable):
            raise TypeError(f"{fn}: with_respect_to must be JacobianWrtVariable.kV or .kQDot, "
                            f"got {with_respect_to!r}")
        return with_respect_to is JacobianWrtVariable.kQDot

    def _jacobian_in_W(self, q, node, p_BoP_body):
        """J (6, nv) of [w_WB_W; v_WP_W] for point P fixed to node's body (a new array)."""
        if node == 0:
            return np.zeros((6, self._tables.nv))
        return self._dyn.jacobian_spatial(q, node, p_BoP_body).copy()

    def _relative_jacobians(self, ctx, fn, frame_B, p_BoBi_B, frame_A, frame_E, wrt_qdot):
        """List of J (6, nv or nq) of V_ABi_E for each column of p_BoBi_B (3, n)."""
        q, _ = self._eval_q_v(ctx)
        X_WB, node_B = self._X_WF(ctx, frame_B, fn, "frame_B")
        X_WA, node_A = self._X_WF(ctx, frame_A, fn, "frame_A")
        X_WE, _ = self._X_WF(ctx, frame_E, fn, "frame_E")
        X_all = self._eval_X_WB(ctx)
        X_WbodyB, X_WbodyA = X_all[node_B], X_all[node_A]
        R_EW = X_WE[:3, :3].T
        Nplus = self._dyn.N_plus_matrix(q).copy() if wrt_qdot else None
        out = []
        for i in range(p_BoBi_B.shape[1]):
            p_WBi = X_WB[:3, :3] @ p_BoBi_B[:, i] + X_WB[:3, 3]
            p_bodyB = X_WbodyB[:3, :3].T @ (p_WBi - X_WbodyB[:3, 3])
            J = self._jacobian_in_W(q, node_B, p_bodyB)
            if node_A != 0:
                p_bodyA = X_WbodyA[:3, :3].T @ (p_WBi - X_WbodyA[:3, 3])
                J -= self._jacobian_in_W(q, node_A, p_bodyA)
            J[:3] = R_EW @ J[:3]
            J[3:] = R_EW @ J[3:]
            out.append(J @ Nplus if wrt_qdot else J)
        return out

    def calc_jacobian_spatial_velocity(self, context, with_respect_to, frame_B, p_BoBp_B,
                                       frame_A, frame_E):
        """Jacobian of V_ABp_E = [w_AB_E; v_ABp_E], shape (6, nv) (kV) or (6, nq) (kQDot).

        Parameters
        ----------
        context : Context
        with_respect_to : JacobianWrtVariable
        frame_B : Frame
            Frame on which point Bp is fixed.
        p_BoBp_B : array_like, shape (3,)
            Position of Bp from frame B's origin, expressed in B.
        frame_A : Frame
            Frame in which the velocity is measured.
        frame_E : Frame
            Frame in which it is expressed.
        """
        try:                    # the plant's own context, with its remembered state views
            views = context._plant_state_views
            frames = self._qt.jacobian_frames.get((frame_B, frame_A, frame_E))
            own = context._system is self
        except (AttributeError, TypeError):     # no views or QueryTables yet; unhashable
            own = False
        if (own and with_respect_to is _KV and views is not None
                and not self._frame_poses_ever_set):       # per-Context frame poses: general path
            qt = self._qt
            if frames is None:
                frames = self._jacobian_frames(qt, "calc_jacobian_spatial_velocity",
                                               frame_B, frame_A, frame_E)
            p = p_BoBp_B
            if p.__class__ is not _ND or p.dtype is not _F64 or p.ndim != 1:
                p = _point("calc_jacobian_spatial_velocity", "p_BoBp_B", p_BoBp_B)
            fast = views[VIEW_FAST]
            J = fast[FAST_JACOBIAN]
            if J is None or _refcount(J) != _HELD:     # the last J is referenced elsewhere
                J = fast[FAST_JACOBIAN] = _empty(qt.shape_6v)
            call = fast[FAST_JACOBIAN_CALL] or bind_fast_queries(qt, views)[FAST_JACOBIAN_CALL]
            if call(p, J, frames):                      # p of another size: raises
                _point("calc_jacobian_spatial_velocity", "p_BoBp_B", p_BoBp_B)
            return J
        fn = "calc_jacobian_spatial_velocity"
        ctx = self._ctx(context, fn)
        self._own_state_views(ctx)              # remembered for the next calls
        wrt_qdot = self._wrt(with_respect_to, fn)
        p = _point(fn, "p_BoBp_B", p_BoBp_B).reshape(3, 1)
        return self._relative_jacobians(ctx, fn, frame_B, p, frame_A, frame_E,
                                        wrt_qdot)[0]

    def _frame_info(self, qt, frame, fn, arg):
        """(node, R_BF (3, 3) or None, p_BF (3,) or None) of a frame of this plant
        (memoized after the full check of `_frame_node`)."""
        try:
            info = qt.frame_info.get(frame)
        except TypeError:                       # unhashable: not a frame
            info = None
        if info is None:
            node, X_BF = self._frame_node(frame, fn, arg)
            if X_BF is None:
                info = (node, None, None)
            else:
                info = (node, np.ascontiguousarray(X_BF[:3, :3], dtype=np.float64),
                        np.ascontiguousarray(X_BF[:3, 3], dtype=np.float64))
            qt.frame_info[frame] = info
        return info

    def _jacobian_frames(self, qt, fn, frame_B, frame_A, frame_E):
        """The last argument of the fused Jacobian kernel for frames B, A, E (checked,
        then memoized in ``qt.jacobian_frames``): X_bB (25,) = [R_bB (9, row-major);
        p_bB (3); R_eE (9); node_B; node_A; node_E; in_world] (b, e the bodies of frames
        B, E: identity and zero for a body frame; `in_world` 1.0 when E is the world
        frame)."""
        node_B, R_BF, p_BF = self._frame_info(qt, frame_B, fn, "frame_B")
        node_A = self._frame_info(qt, frame_A, fn, "frame_A")[0]
        node_E, R_BE, _ = self._frame_info(qt, frame_E, fn, "frame_E")
        X = np.concatenate([(_I3 if R_BF is None else R_BF).ravel(),
                            np.zeros(3) if p_BF is None else p_BF,
                            (_I3 if R_BE is None else R_BE).ravel(),
                            [node_B, node_A, node_E, float(node_E == 0 and R_BE is None)]])
        frames = np.ascontiguousarray(X, dtype=np.float64)
        qt.jacobian_frames[(frame_B, frame_A, frame_E)] = frames
        return frames

    def calc_jacobian_angular_velocity(self, context, with_respect_to, frame_B, frame_A,
                                       frame_E):
        """Jacobian of w_AB_E, shape (3, nv) or (3, nq)."""
        fn = "calc_jacobian_angular_velocity"
        ctx = self._ctx(context, fn)
        wrt_qdot = self._wrt(with_respect_to, fn)
        J = self._relative_jacobians(ctx, fn, frame_B, np.zeros((3, 1)), frame_A, frame_E,
                                     wrt_qdot)[0]
        return J[:3].copy()

    def calc_jacobian_translational_velocity(self, context, with_respect_to, frame_B,
                                             p_BoBi_B, frame_A, frame_E):
        """Jacobian of the velocities v_ABi_E of points Bi fixed to frame B.

        `p_BoBi_B` is (3,) or (3, n); the result is (3 n, nv) or (3 n, nq), rows 3i..3i+2
        for point i.
        """
        fn = "calc_jacobian_translational_velocity"
        ctx = self._ctx(context, fn)
        wrt_qdot = self._wrt(with_respect_to, fn)
        p = _points(fn, "p_BoBi_B", p_BoBi_B)
        Js = self._relative_jacobians(ctx, fn, frame_B, p, frame_A, frame_E, wrt_qdot)
        return np.vstack([J[3:] for J in Js])

    def calc_spatial_accelerations_from_vdot(self, context, known_vdot):
        """A_WB of every body (a list of SpatialAcceleration, in body-index order) for the
        generalized accelerations `known_vdot` (nv,): A_WB = J_WB v̇ + J̇_WB v."""
        fn = "calc_spatial_accelerations_from_vdot"
        ctx = self._ctx(context, fn)
        vdot = np.asarray(known_vdot, dtype=np.float64)
        if vdot.shape != (self.num_velocities(),):
            raise ValueError(f"{fn}: known_vdot must have shape ({self.num_velocities()},), "
                             f"got {vdot.shape}")
        W, origin = self.world_frame(), np.zeros(3)
        out = []
        for b in range(self.num_bodies()):
            frame = self.get_body(b).body_frame()
            J = self.calc_jacobian_spatial_velocity(ctx, JacobianWrtVariable.kV, frame, origin,
                                                    W, W)
            bias = self.calc_bias_spatial_acceleration(ctx, JacobianWrtVariable.kV, frame,
                                                       origin, W, W)
            out.append(SpatialAcceleration(J @ vdot + bias.get_coeffs()))
        return out

    def calc_jacobian_position_vector(self, context, frame_B, p_BoBi_B, frame_A, frame_E):
        """Jq_p_AoBi_E, (3 n, nq): the partial derivatives with respect to q of the position
        vectors p_AoBi of points Bi fixed to frame B, measured in A and expressed in E.

        Since v_ABi = d/dt p_AoBi (in A) = (∂p_AoBi/∂q) q̇, this is the translational
        velocity Jacobian with respect to q̇.
        """
        return self.calc_jacobian_translational_velocity(
            context, JacobianWrtVariable.kQDot, frame_B, p_BoBi_B, frame_A, frame_E)

    def _bias(self, ctx, fn, with_respect_to, frame_B, p, frame_A, frame_E):
        """List of the bias spatial accelerations (6,) of points p (3, n) in E."""
        if self._wrt(with_respect_to, fn):
            raise ValueError(f"{fn}: with_respect_to must be JacobianWrtVariable.kV; the bias "
                             f"of Jacobians with respect to q̇ is not supported (as in Drake)")
        self._frame_node(frame_A, fn, "frame_A")
        if not frame_A.is_world_frame():
            raise ValueError(f"{fn}: frame_A must be the world frame, got {frame_A.name()!r} "
                             f"(as in Drake)")
        q, v = self._eval_q_v(ctx)
        X_WB, node_B = self._X_WF(ctx, frame_B, fn, "frame_B")
        X_WE, _ = self._X_WF(ctx, frame_E, fn, "frame_E")
        X_WbodyB = self._eval_X_WB(ctx)[node_B]
        R_EW = X_WE[:3, :3].T
        out = []
        for i in range(p.shape[1]):
            if node_B == 0:
                out.append(np.zeros(6))
                continue
            p_WBi = X_WB[:3, :3] @ p[:, i] + X_WB[:3, 3]
            p_bodyB = X_WbodyB[:3, :3].T @ (p_WBi - X_WbodyB[:3, 3])
            a = self._dyn.bias_spatial_acceleration(q, v, node_B, p_bodyB)
            out.append(np.concatenate([R_EW @ a[:3], R_EW @ a[3:]]))
        return out

    def calc_bias_spatial_acceleration(self, context, with_respect_to, frame_B, p_BoBp_B,
                                       frame_A, frame_E):
        """AsBias_ABp_E = J̇ v (SpatialAcceleration) of point Bp fixed to frame B; frame_A
        must be the world frame and with_respect_to kV (as in Drake)."""
        fn = "calc_bias_spatial_acceleration"
        ctx = self._ctx(context, fn)
        p = _point(fn, "p_BoBp_B", p_BoBp_B).reshape(3, 1)
        return SpatialAcceleration(
            self._bias(ctx, fn, with_respect_to, frame_B, p, frame_A, frame_E)[0])

    def calc_bias_translational_acceleration(self, context, with_respect_to, frame_B,
                                             p_BoBi_B, frame_A, frame_E):
        """Translational bias accelerations aTBias_ABi_E (3, n) of points Bi of frame B."""
        fn = "calc_bias_translational_acceleration"
        ctx = self._ctx(context, fn)
        p = _points(fn, "p_BoBi_B", p_BoBi_B)
        biases = self._bias(ctx, fn, with_respect_to, frame_B, p, frame_A, frame_E)
        return np.stack([b[3:] for b in biases], axis=1)

    # ---- q̇ = N(q) v --------------------------------------------------------------------
    def map_velocity_to_qdot(self, context, v):
        """q̇ = N(q) v (nq,) for the positions in `context`."""
        fn = "map_velocity_to_qdot"
        ctx = self._ctx(context, fn)
        v = self._vector_arg(fn, "v", v, self._tables.nv, "nv")
        q, _ = self._eval_q_v(ctx)
        return self._dyn.map_velocity_to_qdot(q, v).copy()

    def map_qdot_to_velocity(self, context, qdot):
        """v = N⁺(q) q̇ (nv,) for the positions in `context`."""
        fn = "map_qdot_to_velocity"
        ctx = self._ctx(context, fn)
        qdot = self._vector_arg(fn, "qdot", qdot, self._tables.nq, "nq")
        q, _ = self._eval_q_v(ctx)
        return self._dyn.map_qdot_to_velocity(q, qdot).copy()

    def do_map_velocity_to_qdot(self, context, v):
        return self.map_velocity_to_qdot(context, v)

    def do_map_qdot_to_velocity(self, context, qdot):
        return self.map_qdot_to_velocity(context, qdot)

    def make_velocity_to_qdot_map(self, context):
        """N(q), shape (nq, nv), with q̇ = N(q) v, as a ``scipy.sparse.csc_matrix``
        (pydrake returns a sparse matrix too; ``.toarray()`` gives the dense one)."""
        ctx = self._ctx(context, "make_velocity_to_qdot_map")
        q, _ = self._eval_q_v(ctx)
        import scipy.sparse  # scipy loads at first use, not with the package
        return scipy.sparse.csc_matrix(self._dyn.N_matrix(q))

    def make_qdot_to_velocity_map(self, context):
        """N⁺(q), shape (nv, nq), with v = N⁺(q) q̇, as a ``scipy.sparse.csc_matrix``
        (see `make_velocity_to_qdot_map`)."""
        ctx = self._ctx(context, "make_qdot_to_velocity_map")
        q, _ = self._eval_q_v(ctx)
        import scipy.sparse  # scipy loads at first use, not with the package
        return scipy.sparse.csc_matrix(self._dyn.N_plus_matrix(q))

    # pydrake's QDot spelled by the mechanical CamelCase -> snake_case rule (q_dot)
    map_velocity_to_q_dot = map_velocity_to_qdot
    map_q_dot_to_velocity = map_qdot_to_velocity
    make_velocity_to_q_dot_map = make_velocity_to_qdot_map
    make_q_dot_to_velocity_map = make_qdot_to_velocity_map
