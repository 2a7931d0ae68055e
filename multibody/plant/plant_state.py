"""State access of MultibodyPlant: q and v in a Context, free-body poses and velocities,
default state, and the StateAccessor that lets joints and bodies read a Context.

The state is x = [q; v]: continuous state (time_step == 0) or the single discrete state
group (time_step > 0). Every method accepts the plant's own context or any context of a
diagram containing the plant (the plant's subcontext is found from it). Getters return
new arrays; setters validate sizes and name the function and the expected size.

``set_positions`` / ``set_velocities`` with the plant's own context and a float64
ndarray of the right size take a lean path (`_state_setter`): one compiled copy into the
Context's storage and one notification of what changed (q or v), no temporary state
vector; the notification skips its walk over the dependents when none was evaluated
since the last write.
"""

import warnings

import numpy as np

from merganser.framework.cache import notify_changed
from merganser.framework.errors import ContextError
from merganser.geometry import RigidTransform, RollPitchYaw, RotationMatrix
from merganser.multibody.math import SpatialVelocity
from merganser.multibody.kernels.queries import copy_state_vector
from merganser.multibody.plant.query_tables import (
    VIEW_ROOT, QueryTables, own_state_views, state_copy_entry,
)
from merganser.multibody.tree import Frame, JointType, RigidBody

__all__ = ["PlantStateAccessor", "PlantStateMixin"]

_ND = np.ndarray
_F64 = np.dtype(np.float64)


def _vector(fn, arg, value, size, expected):
    """`value` as a new float64 (size,) array, or ValueError naming `expected`."""
    try:
        a = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {arg} must be an array of numbers, got "
                        f"{type(value).__name__}") from None
    if a.ndim > 1 and a.size == size and a.shape.count(1) >= a.ndim - 1:
        a = a.reshape(size)
    if a.shape != (size,):
        got = f"size {a.size}" if a.ndim == 1 else f"shape {a.shape}"
        raise ValueError(f"{fn}: {arg} has {got}, expected {expected} = {size}")
    return a


class WrongContextError(ContextError, RuntimeError):
    """A plant method was given the context of a system that does not contain the plant
    (the message names both systems); a RuntimeError, as Drake raises, and the framework's
    ContextError."""


_UNSET = object()
#: The compiled state copy (`state_copy_entry`), bound at the first lean write.
_copy = None


def _state_copy():
    global _copy
    _copy = state_copy_entry() or copy_state_vector
    return _copy


def _setter_args(fn, key, value, rest, kw):
    """The arguments after the context of a state setter `fn` called as ``fn(context,
    value, *rest, **kw)``: ``(values,)`` or ``(model_instance, values)``, with pydrake's
    keywords ``model_instance=`` and `key` ("q", "v" or "q_v"); TypeError naming the
    valid keywords for any other."""
    positional = ((value,) if value is not _UNSET else ()) + rest
    if not kw:
        return positional
    unknown = sorted(set(kw) - {"model_instance", key})
    if unknown:
        raise TypeError(f"{fn}: unexpected keyword argument {unknown[0]!r}; the valid ones "
                        f"are 'context', 'model_instance' and {key!r}")
    if key not in kw:
        raise TypeError(f"{fn}: model_instance= given without {key}=")
    if "model_instance" in kw:
        if positional:
            raise TypeError(f"{fn}: model_instance= given after positional arguments")
        return kw["model_instance"], kw[key]
    if len(positional) > 1:
        raise TypeError(f"{fn}: {key}= given after (context, model_instance, {key})")
    return positional + (kw[key],)


def _state_setter(name, part, index, doc):
    """The method `name` writing q (`part` "q", views slot `index` 3) or v ("v", 4).

    Its lean path, for the plant's own context (its remembered `state_views`, read
    without a dict lookup) and a 1-D float64 ndarray given by position: one compiled copy
    into the Context's storage (`copy_state_vector`, which also checks the size and an
    overlap with the storage) and one notification of what changed, which skips the walk
    over the dependents when none of them was evaluated since the last write
    (`framework.cache.notify_changed`, whose test is inlined). Anything else (pydrake's
    keywords ``model_instance=``, ``q=`` / ``v=``, the model-instance form, and a size
    the copy refuses) takes the general `_set_part`, which checks and raises.
    """
    tracker_index = index + 2

    def setter(self, context, value=_UNSET, *rest, **kw):
        try:                                    # the views remembered on the plant's context
            views = context._plant_state_views
            if context._system is not self:
                views = None
        except AttributeError:                  # not made yet, or not a Context
            views = None
        if views is None:
            views = self._own_state_views(context)
        if (views is not None and not rest and value.__class__ is _ND and not kw
                and value.dtype is _F64 and value.ndim == 1
                and not (_copy or _state_copy())(views[index], value)):
            tracker, root = views[tracker_index], views[VIEW_ROOT]
            if (tracker.walked != root.validations
                    or tracker.closure_version != root.version):
                notify_changed(tracker, root)
            return
        self._set_part(context, _setter_args(name, part, value, rest, kw), name, part)

    setter.__name__, setter.__qualname__ = name, f"PlantStateMixin.{name}"
    setter.__doc__ = doc
    return setter


class PlantStateMixin:
    """get/set of positions, velocities and free-body states (see module docstring)."""

    _qt = None      # the QueryTables, built at the first fast-path call after finalize()

    def _query_tables(self):
        """The plant's `QueryTables` (None before finalize())."""
        qt = self._qt
        if qt is None and self._tables is not None and self._tree.is_finalized():
            qt = self._qt = QueryTables(self)
        return qt

    def _own_state_views(self, context):
        """`own_state_views` of `context` when it is the plant's own context (made and
        remembered now; the QueryTables too), else None."""
        if getattr(context, "_system", None) is not self:
            return None
        qt = self._qt or self._query_tables()
        return None if qt is None else own_state_views(qt, context)

    # ---- contexts ----------------------------------------------------------------------
    def _ctx(self, context, fn):
        """`context` if it is the plant's own; else WrongContextError (a RuntimeError, as
        Drake's), naming both systems: a diagram's context must first be narrowed with
        ``plant.get_my_context_from_root(root_context)``."""
        try:
            system = context._system
        except AttributeError:
            raise TypeError(f"{fn}: expected a Context, got {type(context).__name__}") from None
        if system is self:
            return context
        self._tree._throw_if_not_finalized(fn)
        try:
            self._context_from(context, fn)
        except ContextError as err:
            raise WrongContextError(str(err)) from None
        raise WrongContextError(
            f"{fn}: expected the context of MultibodyPlant '{self.get_name()}', but got the "
            f"context of {type(system).__name__} '{system.get_name()}', which contains the "
            f"plant; pass plant.get_my_context_from_root(context) (or "
            f"diagram.get_subsystem_context(plant, context))")

    def _x(self, ctx):
        """x = [q; v] of the plant's context `ctx` (read-only view)."""
        if self._tables.continuous:
            return ctx.get_continuous_state_vector()
        return ctx.get_discrete_state(0)

    def _set_x(self, ctx, x):
        if self._tables.continuous:
            ctx.set_continuous_state(x)
        else:
            ctx.set_discrete_state(0, x)

    def _instance(self, model_instance, fn):
        return self._tree._check_instance(model_instance, fn)

    def _instance_expected(self, what, mi):
        return f"{what}(model_instance {mi} {self._tree.get_model_instance_name(mi)!r})"

    # ---- q, v, x -----------------------------------------------------------------------
    def _get_part(self, context, model_instance, fn, part):
        ctx = self._ctx(context, fn)
        t = self._tables
        x = self._x(ctx)
        whole = {"q": x[:t.nq], "v": x[t.nq:], "x": x}[part]
        if model_instance is None:
            return np.array(whole)
        mi = self._instance(model_instance, fn)
        indices = {"q": t.q_indices, "v": t.v_indices, "x": t.x_indices}[part][mi]
        return whole[indices]

    def _set_part(self, context, args, fn, part):
        ctx = self._ctx(context, fn)
        t = self._tables
        arg = {"q": "q", "v": "v", "x": "q_v"}[part]
        what = {"q": ("nq", "num_positions"), "v": ("nv", "num_velocities"),
                "x": ("nq + nv", "num_multibody_states")}[part]
        x = np.array(self._x(ctx))
        if len(args) == 1:
            size = {"q": t.nq, "v": t.nv, "x": t.nq + t.nv}[part]
            values = _vector(fn, arg, args[0], size, what[0])
            indices = {"q": slice(0, t.nq), "v": slice(t.nq, None), "x": slice(None)}[part]
        elif len(args) == 2:
            mi = self._instance(args[0], fn)
            indices = {"q": t.q_indices[mi], "v": t.nq + t.v_indices[mi],
                       "x": t.x_indices[mi]}[part]
            values = _vector(fn, arg, args[1], len(indices), self._instance_expected(what[1], mi))
        else:
            raise TypeError(f"{fn}: expected (context, {arg}) or (context, model_instance, "
                            f"{arg}), got {len(args) + 1} arguments")
        x[indices] = values
        if self._tables.continuous and part != "x":
            # write only q or only v: the other part's dependents stay up to date
            # (Drake's get_mutable_generalized_position/velocity)
            state = ctx.get_mutable_continuous_state()
            if part == "q":
                state.get_mutable_generalized_position().set_from_vector(x[:t.nq])
            else:
                state.get_mutable_generalized_velocity().set_from_vector(x[t.nq:])
            return
        self._set_x(ctx, x)

    def get_positions(self, context, model_instance=None):
        """Generalized positions q, shape (nq,) (or the model instance's, in q order)."""
        return self._get_part(context, model_instance, "get_positions", "q")

    set_positions = _state_setter(
        "set_positions", "q", 3,
        """``set_positions(context, q)`` with q (nq,), or ``set_positions(context,
        model_instance, q_instance)``.""")

    def get_velocities(self, context, model_instance=None):
        """Generalized velocities v, shape (nv,) (or the model instance's)."""
        return self._get_part(context, model_instance, "get_velocities", "v")

    set_velocities = _state_setter(
        "set_velocities", "v", 4,
        """``set_velocities(context, v)`` with v (nv,), or ``set_velocities(context,
        model_instance, v_instance)``.""")

    def get_positions_and_velocities(self, context, model_instance=None):
        """x = [q; v], shape (nq + nv,) (or the model instance's [q_i; v_i])."""
        return self._get_part(context, model_instance, "get_positions_and_velocities", "x")

    def set_positions_and_velocities(self, context, value=_UNSET, *rest, **kw):
        """``set_positions_and_velocities(context, q_v)`` or ``(context, model_instance,
        q_v)``, also with pydrake's keywords ``model_instance=`` and ``q_v=``."""
        fn = "set_positions_and_velocities"
        self._set_part(context, _setter_args(fn, "q_v", value, rest, kw), fn, "x")

    def is_velocity_equal_to_qdot(self):
        """True if v = q̇ for every state (no quaternion or roll-pitch-yaw joint)."""
        self._tree._throw_if_not_finalized("is_velocity_equal_to_qdot")
        return self._tables.velocity_equals_qdot

    is_velocity_equal_to_q_dot = is_velocity_equal_to_qdot     # pydrake IsVelocityEqualToQDot

    # ---- default state -----------------------------------------------------------------
    def set_default_state_and_parameters(self, context):
        """Write the default x = [q0; 0] (joints' default positions) into `context`."""
        ctx = self._ctx(context, "set_default_state_and_parameters")
        x = np.zeros(self._tables.nq + self._tables.nv)
        x[:self._tables.nq] = self._tree.get_default_positions()
        self._set_x(ctx, x)

    # ---- free bodies -------------------------------------------------------------------
    def _check_body(self, body, fn):
        if not isinstance(body, RigidBody):
            raise TypeError(f"{fn}: body must be a RigidBody, got {type(body).__name__}")
        self._tree._check_element(body, self._tree._bodies, fn, "body")

    def _free_body_starts(self, body, fn):
        self._check_body(body, fn)
        if not body.is_floating_base_body():
            raise ValueError(
                f"{fn}: body {body.name()!r} is not a free (floating base) body; only bodies "
                f"without an inboard joint are mobilized by a floating joint at finalize()")
        jtype = self._model.jtype[self._tables.node_of_body[body.index()]]
        return body.floating_positions_start(), body.floating_velocities_start(), jtype

    def set_floating_base_body_pose_in_world_frame(self, context, body, X_WB):
        """Set the pose X_WB (RigidTransform) in the world of floating base body `body`
        (one mobilized by a floating joint whose parent is the world), as pydrake's
        ``SetFloatingBaseBodyPoseInWorldFrame``; the same as `set_free_body_pose`."""
        self.set_free_body_pose(context, body, X_WB)

    def set_floating_base_body_pose_in_anchored_frame(self, context, frame_F, body, X_FB):
        """Set floating base body `body`'s pose X_FB (RigidTransform) in frame `frame_F`,
        which must be anchored (welded to the world), as pydrake's
        ``SetFloatingBaseBodyPoseInAnchoredFrame``: X_WB = X_WF X_FB.

        Raises
        ------
        RuntimeError
            If `frame_F` is not anchored.
        """
        fn = "set_floating_base_body_pose_in_anchored_frame"
        anchored = self.get_bodies_welded_to(self.world_body())
        if frame_F.body().index() not in {b.index() for b in anchored}:
            raise RuntimeError(
                f"{fn}: frame_F {frame_F.name()!r} is on body {frame_F.body().name()!r}, "
                f"which is not anchored (welded to the world)")
        if not isinstance(X_FB, RigidTransform):
            X_FB = RigidTransform(X_FB)
        X_WF = self.calc_relative_transform(context, self.world_frame(), frame_F)
        self.set_free_body_pose(context, body, X_WF @ X_FB)

    def set_free_body_pose(self, context, body, X_JpJc):
        """Set the pose of free body `body` in `context`: X_JpJc (RigidTransform), the pose
        of its floating joint's child frame in its parent frame, which for a free body is
        X_WB, the body's pose in the world (pydrake's keyword)."""
        fn = "set_free_body_pose"
        ctx = self._ctx(context, fn)
        qs, _, jtype = self._free_body_starts(body, fn)
        X_WB = X_JpJc
        if not isinstance(X_WB, RigidTransform):
            try:
                X_WB = RigidTransform(X_WB)
            except (TypeError, ValueError) as err:
                raise ValueError(f"{fn}: X_JpJc must be a rigid transform: {err}") from None
        x = np.array(self._x(ctx))
        if jtype == JointType.QUATERNION_FLOATING:
            x[qs:qs + 4] = X_WB.rotation().to_quaternion()
            x[qs + 4:qs + 7] = X_WB.translation()
        else:  # RPY_FLOATING
            x[qs:qs + 3] = X_WB.rotation().to_roll_pitch_yaw().vector()
            x[qs + 3:qs + 6] = X_WB.translation()
        self._set_x(ctx, x)

    def get_free_body_pose(self, context, body):
        """The pose X_WB (RigidTransform) of free body `body` in `context`."""
        fn = "get_free_body_pose"
        ctx = self._ctx(context, fn)
        qs, _, jtype = self._free_body_starts(body, fn)
        q = self._x(ctx)
        if jtype == JointType.QUATERNION_FLOATING:
            quat = np.array(q[qs:qs + 4])
            return RigidTransform(RotationMatrix(quat / np.linalg.norm(quat)),
                                  np.array(q[qs + 4:qs + 7]))
        return RigidTransform(RollPitchYaw(*q[qs:qs + 3]), np.array(q[qs + 3:qs + 6]))

    def set_free_body_spatial_velocity(self, context, body, V_JpJc=None, *, V_WB=None):
        """Set V_WB = [w_WB_W; v_WBo_W] (SpatialVelocity) of free body `body`: for a free
        body, the velocity V_JpJc of its floating joint's child frame in its parent frame
        (pydrake's current keyword; ``V_WB=``, its older one, is accepted too)."""
        fn = "set_free_body_spatial_velocity"
        if not hasattr(context, "_system") and hasattr(V_JpJc, "_system"):
            # pydrake's deprecated order (body, V_WB, context): still accepted there, with
            # a deprecation warning, as here
            warnings.warn(f"{fn}: the order (body, V_WB, context) is deprecated (as in "
                          f"Drake); use (context, body, V_JpJc)", DeprecationWarning,
                          stacklevel=2)
            context, body, V_JpJc = V_JpJc, context, body
        if (V_JpJc is None) == (V_WB is None):
            raise TypeError(f"{fn}: give the spatial velocity once, as V_JpJc (or V_WB)")
        V_WB = V_JpJc if V_WB is None else V_WB
        ctx = self._ctx(context, fn)
        _, vs, _ = self._free_body_starts(body, fn)
        coeffs = V_WB.get_coeffs() if isinstance(V_WB, SpatialVelocity) else V_WB
        values = _vector(fn, "V_WB", coeffs, 6, "6 ([w_WB_W; v_WBo_W])")
        x = np.array(self._x(ctx))
        nq = self._tables.nq
        x[nq + vs:nq + vs + 6] = values
        self._set_x(ctx, x)

    def get_free_body_spatial_velocity(self, context, body):
        """V_WB = [w_WB_W; v_WBo_W] (SpatialVelocity) of free body `body`."""
        fn = "get_free_body_spatial_velocity"
        ctx = self._ctx(context, fn)
        _, vs, _ = self._free_body_starts(body, fn)
        nq = self._tables.nq
        return SpatialVelocity(np.array(self._x(ctx)[nq + vs:nq + vs + 6]))

    # ---- frames ------------------------------------------------------------------------
    def _frame_node(self, frame, fn, arg):
        """(node, X_BF (4, 4) or None for a body frame) of a frame of this plant."""
        if not isinstance(frame, Frame):
            raise TypeError(f"{fn}: {arg} must be a Frame, got {type(frame).__name__}")
        if frame._tree is not self._tree:
            raise ValueError(f"{fn}: {arg} {frame.name()!r} does not belong to this plant")
        node = int(self._tables.node_of_body[frame.body().index()])
        return node, (None if frame.is_body_frame() else frame.pose_in_body_matrix())


class PlantStateAccessor:
    """The `multibody.tree.StateAccessor` of a plant: lets joints and bodies read and write
    the plant's Context (``RevoluteJoint.get_angle(ctx)``, ``body.set_mass(ctx, m)``, ...).
    """

    __slots__ = ("_plant",)

    def __init__(self, plant):
        self._plant = plant

    def get_positions(self, context):
        return self._plant.get_positions(context)

    def frame_pose_in_body(self, context, frame):
        return self._plant._frame_X_BF(self._plant._ctx(context, "calc_pose_in_body_frame"),
                                       frame)

    def set_frame_pose_in_parent(self, context, frame, X_PF):
        self._plant._set_frame_pose_in_parent(context, frame, X_PF)

    def get_frame_pose_in_parent(self, context, frame):
        return self._plant._get_frame_pose_in_parent(context, frame)

    def set_joint_locked(self, context, joint, locked):
        self._plant._set_joint_locked(context, joint, locked)

    def is_joint_locked(self, context, joint):
        return self._plant._is_joint_locked(context, joint)

    def eval_element_kinematics(self, context):
        plant = self._plant
        return plant._kinematics_for_elements(plant._ctx(context, "eval_element_kinematics"))

    def get_actuator_rotor(self, context, actuator):
        return self._plant._get_actuator_rotor(context, actuator)

    def set_actuator_rotor(self, context, actuator, rotor_inertia=None, gear_ratio=None):
        self._plant._set_actuator_rotor(context, actuator, rotor_inertia, gear_ratio)

    def get_joint_damping(self, context, joint):
        return self._plant._get_joint_damping(context, joint)

    def set_joint_damping(self, context, joint, damping):
        self._plant._set_joint_damping(context, joint, damping)

    def get_force_element_parameters(self, context, element):
        return self._plant._get_force_element_parameters(context, element)

    def set_force_element_parameters(self, context, element, values):
        self._plant._set_force_element_parameters(context, element, values)

    def get_velocities(self, context):
        return self._plant.get_velocities(context)

    def _set_slice(self, context, start, values, fn, offset):
        plant = self._plant
        ctx = plant._ctx(context, fn)
        x = np.array(plant._x(ctx))
        values = np.asarray(values, dtype=np.float64).reshape(-1)
        x[offset + start:offset + start + values.size] = values
        plant._set_x(ctx, x)

    def set_positions_slice(self, context, start, values):
        self._set_slice(context, start, values, "set_positions", 0)

    def set_velocities_slice(self, context, start, values):
        self._set_slice(context, start, values, "set_velocities", self._plant._tables.nq)

    def eval_body_pose_in_world(self, context, body):
        return self._plant.eval_body_pose_in_world(context, body)

    def eval_body_spatial_velocity_in_world(self, context, body):
        return self._plant.eval_body_spatial_velocity_in_world(context, body)

    def get_body_mass(self, context, body):
        return self._plant._get_body_mass(context, body)

    def set_body_mass(self, context, body, mass):
        self._plant._set_body_mass(context, body, mass)

    def get_body_spatial_inertia(self, context, body):
        return self._plant._get_body_spatial_inertia(context, body)

    def set_body_spatial_inertia(self, context, body, M_BBo_B):
        self._plant._set_body_spatial_inertia(context, body, M_BBo_B)
