"""Element parameters that MultibodyPlant keeps in the Context, as Drake does.

- Force elements with per-Context parameters (`LinearBushingRollPitchYaw`: its torque
  and force stiffness and damping constants) get one numeric parameter group each, after
  the bodies' groups; the element's ``set_*(context, ...)`` writes it, the dynamics read it.
  The element's own defaults (``torque_stiffness_constants()`` ...) are what new Contexts
  start from and do not change.
- Constraints have an active status per Context (Drake's SetConstraintActiveStatus /
  GetConstraintActiveStatus): one abstract parameter, a bool per constraint id, declared
  when the plant has constraints; the discrete solvers enforce the active ones only.
- Distance constraints' parameters per Context (Drake's Get/SetDistanceConstraintParams):
  one abstract parameter, ``{constraint id: DistanceConstraintParams}`` holding the ones a
  Context changed; the discrete solve of that Context uses them.
- Joints can be locked per Context (Drake's Joint::Lock / Unlock / is_locked): one
  abstract parameter, a `JointLocks`. Locking zeroes the joint's velocities; while locked
  they stay zero: the forward dynamics solve M_uu v̇_u = k_u on the unlocked velocities u
  (k = τ - C v, so the locked joints act as welds, v̇ = 0 on them), and the discrete
  solvers see the locked velocities decoupled (see `locked_step_mass_matrix`) and write
  v_next = 0 there.
- Joint damping per Context (Drake's Joint::GetDampingVector / SetDampingVector): one
  abstract parameter, None (the joints' defaults) or the plant's damping vector D (nv,)
  once a Context changed some joint's. The dynamics read `_damping(context)`; the fused
  kernels that compile D in (the one-call forward dynamics, the lazy force elements, the
  compiled forms and the discrete loop) are bypassed for such a Context.
- Actuators' rotor inertia Iᵣ and gear ratio ρ per Context (Drake's
  JointActuator::SetRotorInertia / SetGearRatio): one abstract parameter, an
  `ActuatorRotors` (None until a Context changes one), with the reflected-inertia vector
  (armature + Σ ρ² Iᵣ, nv) it gives; the dynamics read `_reflected_inertia(context)`, and
  the fused kernels (which compile the default in) step aside for such a Context.
- A FixedOffsetFrame's pose X_PF in its parent can be set per Context (Drake's
  SetPoseInParentFrame): one abstract parameter, ``{frame index: X_PF}`` (empty by
  default); the frame queries of that Context use it. Frames a joint or a bushing is
  attached to (or that such a frame is fixed to) are refused: their poses are compiled
  into the plant's model at finalize.
"""

import numpy as np

from merganser.multibody.tree.constraints import DistanceConstraintParams, DistanceConstraintSpec
from merganser.multibody.tree.errors import ElementLookupError
from merganser.multibody.tree.frames import FixedOffsetFrame

__all__ = ["ActuatorRotors", "FramePoseError", "JointDamping", "JointLocks",
           "PlantElementParametersMixin", "apply_joint_locks", "locked_step_mass_matrix"]

#: The mass a locked velocity gets in the discrete solvers, relative to the largest
#: diagonal entry of M: large enough that contact impulses cannot move it (its velocity
#: is then set to exactly zero), small enough to keep the solvers' arithmetic sound.
_LOCKED_MASS_SCALE = 1e10


class JointLocks:
    """The joints locked in a Context (immutable): ``joints``, a frozenset of joint
    indices, ``v``, their velocity indices (int64, ascending; empty when none), and
    ``locked``, ``v`` or None when it is empty (what the dynamics test, once per call)."""

    __slots__ = ("joints", "v", "locked")

    def __init__(self, joints=frozenset(), v=()):
        self.joints = frozenset(joints)
        self.v = np.array(sorted(v), dtype=np.int64)
        self.locked = self.v if self.v.size else None

    def __repr__(self):
        return f"JointLocks(joints={sorted(self.joints)}, v={self.v.tolist()})"


class JointDamping:
    """The joint damping a Context holds (immutable): ``D``, the plant's damping vector
    (nv,), read-only, or None for the joints' defaults."""

    __slots__ = ("D",)

    def __init__(self, D=None):
        if D is not None:
            D = np.array(D, dtype=float)
            D.flags.writeable = False
        self.D = D

    def __repr__(self):
        return f"JointDamping(D={None if self.D is None else self.D.tolist()})"


class ActuatorRotors:
    """The actuators' rotor inertias and gear ratios a Context holds (immutable):
    ``rotor_inertia``, ``gear_ratio`` (nu,) in actuation order and ``reflected`` (nv,),
    the reflected-inertia vector they give (armature included), all read-only; all None
    for the defaults."""

    __slots__ = ("rotor_inertia", "gear_ratio", "reflected")

    def __init__(self, rotor_inertia=None, gear_ratio=None, reflected=None):
        values = []
        for a in (rotor_inertia, gear_ratio, reflected):
            if a is not None:
                a = np.array(a, dtype=float)
                a.flags.writeable = False
            values.append(a)
        self.rotor_inertia, self.gear_ratio, self.reflected = values

    def __repr__(self):
        if self.rotor_inertia is None:
            return "ActuatorRotors(defaults)"
        return (f"ActuatorRotors(rotor_inertia={self.rotor_inertia.tolist()}, "
                f"gear_ratio={self.gear_ratio.tolist()})")


class FramePoseError(RuntimeError):
    """A FixedOffsetFrame's pose cannot be set in a Context (see the module docstring)."""


def _frames_compiled_into_the_model(tree):
    """``{frame index: description of its user}`` for the frames whose pose the plant
    compiles at finalize (joint and bushing frames, and the frames they are fixed to)."""
    users = {}

    def mark(frame, user):
        while frame is not None and not frame.is_body_frame():
            users.setdefault(int(frame.index()), user)
            frame = frame.parent_frame()

    for j in tree.get_joint_indices():
        joint = tree.get_joint(j)
        for frame in (joint.frame_on_parent(), joint.frame_on_child()):
            mark(frame, f"joint {joint.name()!r}")
    for i in range(tree.num_force_elements()):
        element = tree.get_force_element(i)
        for attr in ("frameA", "frameC"):
            if hasattr(element, attr):
                mark(getattr(element, attr)(), f"the {type(element).__name__} (force element "
                                               f"{i})")
    return users


def apply_joint_locks(M, vdot, locked_v):
    """Make `vdot` (nv,) the accelerations with the velocities `locked_v` held at zero:
    with k = M v̇ (the generalized forces that gave v̇), solve M_uu v̇_u = k_u on the
    unlocked velocities u and set v̇ = 0 on the locked ones (in place)."""
    nv = vdot.shape[0]
    unlocked = np.setdiff1d(np.arange(nv), locked_v, assume_unique=True)
    k = M @ vdot
    vdot[locked_v] = 0.0
    if unlocked.size:
        vdot[unlocked] = np.linalg.solve(M[np.ix_(unlocked, unlocked)], k[unlocked])


def locked_step_mass_matrix(M, locked_v):
    """M with the locked velocities decoupled (their rows and columns zero) and given a
    very large mass, for the discrete solvers (a new (nv, nv) array)."""
    M = np.array(M)
    scale = _LOCKED_MASS_SCALE * max(1.0, float(np.max(np.abs(np.diag(M)))))
    M[locked_v, :] = 0.0
    M[:, locked_v] = 0.0
    M[locked_v, locked_v] = scale
    return M


class PlantElementParametersMixin:
    """Declaration and access of the per-Context element parameters (module docstring)."""

    # True once any Context of this plant got a frame pose of its own: the fused Jacobian
    # (plant_queries) memoizes the frames' default offsets and then takes the general path.
    _frame_poses_ever_set = False
    # Set (on the plant) once some Context holds its own joint damping: the fused paths
    # that compile the default damping in then check the Context (see `_damping`).
    _context_damping_ever_set = False
    # Likewise once some Context holds its own rotor inertia or gear ratio.
    _context_rotors_ever_set = False

    def _declare_element_parameters(self):
        """At finalize: a numeric parameter per parametrized force element and the
        constraints' active flags."""
        self._element_parameter_index = {}
        for i in range(self._tree.num_force_elements()):
            element = self._tree.get_force_element(i)
            defaults = element._default_context_parameters()
            if defaults is not None:
                self._element_parameter_index[i] = self.declare_numeric_parameter(defaults)
        self._joint_locks_index = self.declare_abstract_parameter(JointLocks())
        self._joint_damping_index = self.declare_abstract_parameter(JointDamping())
        self._actuator_rotors_index = self.declare_abstract_parameter(ActuatorRotors())
        self._frame_poses_index = self.declare_abstract_parameter({})
        self._compiled_frames = _frames_compiled_into_the_model(self._tree)
        ids = self._tree.get_constraint_ids()
        self._constraint_position = {int(k): n for n, k in enumerate(ids)}
        self._constraint_status_index = (
            self.declare_abstract_parameter(np.ones(len(ids), dtype=bool)) if ids else None)
        specs = self._tree.get_constraint_specs()
        self._distance_ids = [k for k, spec in zip(ids, specs)
                              if isinstance(spec, DistanceConstraintSpec)]
        # {constraint id: DistanceConstraintParams} a Context changed (empty by default)
        self._distance_params_index = (
            self.declare_abstract_parameter({}) if self._distance_ids else None)

    # ---- force elements ---------------------------------------------------------------------
    def _force_element_parameters(self, context):
        """``{force element index: parameter vector}`` of `context` (None if no element has
        per-Context parameters)."""
        if not self._element_parameter_index:
            return None
        return {i: context.get_numeric_parameter(k)
                for i, k in self._element_parameter_index.items()}

    def _element_parameter_group(self, context, element, fn):
        index = self._element_parameter_index.get(int(element.index()))
        if index is None or self._tree.get_force_element(element.index()) is not element:
            raise ElementLookupError(f"{fn}: force element {element!r} has no parameters in "
                                     f"the Context of plant '{self.get_name()}'")
        return self._ctx(context, fn), index

    def _get_force_element_parameters(self, context, element):
        """The per-Context parameter vector of force `element` (a copy)."""
        ctx, index = self._element_parameter_group(context, element,
                                                   "get_force_element_parameters")
        return np.array(ctx.get_numeric_parameter(index))

    def _set_force_element_parameters(self, context, element, values):
        """Overwrite the per-Context parameter vector of force `element`."""
        ctx, index = self._element_parameter_group(context, element,
                                                   "set_force_element_parameters")
        ctx.set_numeric_parameter(index, values)

    # ---- joint locking ----------------------------------------------------------------------
    def _set_joint_locked(self, context, joint, locked):
        fn = "Joint.lock" if locked else "Joint.unlock"
        self._tree._check_element(joint, self._tree._joint_slots, fn, "joint")
        ctx = self._ctx(context, fn)
        held = ctx.get_abstract_parameter(self._joint_locks_index).get_value()
        joints = set(held.joints)
        index = int(joint.index())
        (joints.add if locked else joints.discard)(index)
        v = [self._tree.get_joint(j).velocity_start() + k for j in joints
             for k in range(self._tree.get_joint(j).num_velocities())]
        ctx.set_abstract_parameter(self._joint_locks_index, JointLocks(joints, v))
        if locked and joint.num_velocities():
            joint.set_velocities(ctx, np.zeros(joint.num_velocities()))

    def _is_joint_locked(self, context, joint):
        fn = "Joint.is_locked"
        self._tree._check_element(joint, self._tree._joint_slots, fn, "joint")
        ctx = self._ctx(context, fn)
        return int(joint.index()) in ctx.get_abstract_parameter(
            self._joint_locks_index).get_value().joints

    def _locked_velocities(self, context):
        """The locked velocity indices (int64) of the plant's own `context`, or None when
        no velocity is locked."""
        return context._pa[self._joint_locks_index].get_value().locked

    def _context_element_overrides(self, context):
        """Why the compiled forms (which have the model's defaults compiled in) cannot
        step the plant's own `context`: a sentence, or None when it holds no joint locks,
        joint damping or actuator rotor values of its own."""
        if self._locked_velocities(context) is not None:
            return "joints are locked in the context (the compiled form has no locking)"
        if self._context_damping(context) is not None:
            return ("the context holds its own joint damping (the compiled form has the "
                    "defaults)")
        if self._context_reflected_inertia(context) is not None:
            return ("the context holds its own rotor inertia or gear ratio (the compiled "
                    "form has the defaults)")
        return None

    # ---- joint damping ----------------------------------------------------------------------
    def _context_damping(self, context):
        """The damping vector D (nv,) `context` holds, or None when it holds the defaults
        (the plant's own context; read-only)."""
        if not self._context_damping_ever_set:
            return None
        return context._pa[self._joint_damping_index].get_value().D

    def _damping(self, context):
        """The damping vector D (nv,) of the plant's own `context` (read-only)."""
        d = self._context_damping(context)
        return self._tables.damping if d is None else d

    def _get_joint_damping(self, context, joint):
        fn = "Joint.get_damping_vector"
        self._tree._check_element(joint, self._tree._joint_slots, fn, "joint")
        ctx = self._ctx(context, fn)
        start = joint.velocity_start()
        return np.array(self._damping(ctx)[start:start + joint.num_velocities()])

    def _set_joint_damping(self, context, joint, damping):
        fn = "Joint.set_damping_vector"
        self._tree._check_element(joint, self._tree._joint_slots, fn, "joint")
        ctx = self._ctx(context, fn)
        d = np.array(self._damping(ctx), dtype=float)
        start = joint.velocity_start()
        d[start:start + joint.num_velocities()] = damping
        self._context_damping_ever_set = True
        ctx.set_abstract_parameter(self._joint_damping_index, JointDamping(d))

    # ---- actuators' rotor inertia and gear ratio ------------------------------------------
    def _context_reflected_inertia(self, context):
        """The reflected-inertia vector (nv,) `context` holds, or None when it holds the
        defaults (the plant's own context; read-only)."""
        if not self._context_rotors_ever_set:
            return None
        return context._pa[self._actuator_rotors_index].get_value().reflected

    def _reflected_inertia(self, context):
        """(reflected inertia (nv,), whether any is non-zero) of the plant's own
        `context`."""
        r = self._context_reflected_inertia(context)
        if r is None:
            return self._tables.reflected_inertia, self._tables.has_reflected_inertia
        return r, bool(r.any())

    def _get_actuator_rotor(self, context, actuator):
        fn = "JointActuator.rotor_inertia"
        self._tree._check_element(actuator, self._tree._actuator_slots, fn, "actuator")
        ctx = self._ctx(context, fn)
        held = ctx._pa[self._actuator_rotors_index].get_value()
        a = actuator.input_start()
        if held.rotor_inertia is None:
            return actuator.default_rotor_inertia(), actuator.default_gear_ratio()
        return float(held.rotor_inertia[a]), float(held.gear_ratio[a])

    def _set_actuator_rotor(self, context, actuator, rotor_inertia=None, gear_ratio=None):
        fn = "JointActuator.set_rotor_inertia"
        self._tree._check_element(actuator, self._tree._actuator_slots, fn, "actuator")
        ctx = self._ctx(context, fn)
        actuators = self._tree._actuators
        held = ctx._pa[self._actuator_rotors_index].get_value()
        if held.rotor_inertia is None:
            Ir = np.array([x.default_rotor_inertia() for x in actuators], dtype=float)
            rho = np.array([x.default_gear_ratio() for x in actuators], dtype=float)
        else:
            Ir, rho = held.rotor_inertia.copy(), held.gear_ratio.copy()
        a = actuator.input_start()
        if rotor_inertia is not None:
            Ir[a] = rotor_inertia
        if gear_ratio is not None:
            rho[a] = gear_ratio
        R = np.array(self._tables.reflected_inertia, dtype=float)
        for k, x in enumerate(actuators):
            R[x.joint().velocity_start()] += rho[k] ** 2 * Ir[k] - x.default_reflected_inertia()
        self._context_rotors_ever_set = True
        ctx.set_abstract_parameter(self._actuator_rotors_index, ActuatorRotors(Ir, rho, R))

    # ---- fixed offset frames' poses -------------------------------------------------------
    def _frame_poses(self, ctx):
        """``{frame index: X_PF}`` set in the plant's own `ctx` (do not modify)."""
        return ctx._pa[self._frame_poses_index].get_value()

    def _frame_X_BF(self, ctx, frame):
        """X_BF (4, 4) of `frame` in the plant's own `ctx` (read-only)."""
        poses = self._frame_poses(ctx)
        if not poses or frame.is_body_frame():
            return frame.pose_in_body_matrix()
        X_PF = poses.get(int(frame.index()), frame._X_PF)
        return self._frame_X_BF(ctx, frame.parent_frame()) @ X_PF

    def _check_offset_frame(self, frame, fn):
        if not isinstance(frame, FixedOffsetFrame):
            raise TypeError(f"{fn}: frame must be a FixedOffsetFrame, got "
                            f"{type(frame).__name__}")
        self._tree._check_element(frame, self._tree._frames, fn, "frame")

    def _set_frame_pose_in_parent(self, context, frame, X_PF):
        fn = "FixedOffsetFrame.set_pose_in_parent_frame"
        self._check_offset_frame(frame, fn)
        user = self._compiled_frames.get(int(frame.index()))
        if user is not None:
            raise FramePoseError(
                f"{fn}: frame {frame.name()!r} carries {user}, which plant "
                f"'{self.get_name()}' applies with the frame's default pose (compiled at "
                f"finalize); its pose cannot change per Context (add a FixedOffsetFrame of "
                f"its own for the pose you need to change)")
        ctx = self._ctx(context, fn)
        self._frame_poses_ever_set = True   # the fused Jacobian memoizes default offsets
        poses = dict(self._frame_poses(ctx))
        X = np.array(X_PF, dtype=float)
        X.flags.writeable = False
        poses[int(frame.index())] = X
        ctx.set_abstract_parameter(self._frame_poses_index, poses)

    def _get_frame_pose_in_parent(self, context, frame):
        fn = "FixedOffsetFrame.get_pose_in_parent_frame"
        self._check_offset_frame(frame, fn)
        return self._frame_poses(self._ctx(context, fn)).get(int(frame.index()), frame._X_PF)

    # ---- constraints ------------------------------------------------------------------------
    def _constraint_slot(self, fn, id):  # noqa: A002 (pydrake's keyword)
        self._tree._throw_if_not_finalized(fn)
        position = self._constraint_position.get(id) if isinstance(id, (int, np.integer)) \
            and not isinstance(id, bool) else None
        if position is None:
            raise ElementLookupError(
                f"{fn}: id {id!r} is not a constraint of plant '{self.get_name()}'; constraint "
                f"ids: {sorted(self._constraint_position)}")
        return position

    def get_constraint_active_status(self, context, id):  # noqa: A002 (pydrake's keyword)
        """True if constraint `id` is active in `context` (every constraint is, by
        default)."""
        fn = "get_constraint_active_status"
        position = self._constraint_slot(fn, id)
        ctx = self._ctx(context, fn)
        return bool(ctx.get_abstract_parameter(self._constraint_status_index).get_value()[position])

    def set_constraint_active_status(self, context, id, status):  # noqa: A002
        """Make constraint `id` active (`status` True) or inactive in `context` only; an
        inactive constraint is left out of the discrete solve."""
        fn = "set_constraint_active_status"
        position = self._constraint_slot(fn, id)
        if not isinstance(status, (bool, np.bool_)):
            raise TypeError(f"{fn}: status must be a bool, got {type(status).__name__}")
        ctx = self._ctx(context, fn)
        flags = np.array(ctx.get_abstract_parameter(self._constraint_status_index).get_value())
        flags[position] = bool(status)
        ctx.set_abstract_parameter(self._constraint_status_index, flags)

    def _distance_id(self, fn, id):  # noqa: A002 (pydrake's keyword)
        self._constraint_slot(fn, id)
        if int(id) not in self._distance_ids:
            raise ElementLookupError(
                f"{fn}: constraint {id} is not a distance constraint; distance constraint "
                f"ids: {self._distance_ids}")
        return int(id)

    def get_distance_constraint_params(self, context, id=None):  # noqa: A002
        """The DistanceConstraintParams of constraint `id` in `context`, or, without `id`,
        ``{id: DistanceConstraintParams}`` of every distance constraint (Drake's
        GetDistanceConstraintParams)."""
        fn = "get_distance_constraint_params"
        self._tree._throw_if_not_finalized(fn)
        ctx = self._ctx(context, fn)
        defaults = self._tree.get_default_distance_constraint_params()
        held = (ctx.get_abstract_parameter(self._distance_params_index).get_value()
                if self._distance_params_index is not None else {})
        if id is None:
            return {k: held.get(k, defaults[k]) for k in self._distance_ids}
        k = self._distance_id(fn, id)
        return held.get(k, defaults[k])

    def set_distance_constraint_params(self, context, id, params):  # noqa: A002
        """Store `params` (a DistanceConstraintParams: bodies, points, distance, stiffness,
        damping) for distance constraint `id` in `context` only; the discrete solve of that
        Context uses them."""
        fn = "set_distance_constraint_params"
        self._tree._throw_if_not_finalized(fn)
        k = self._distance_id(fn, id)
        if not isinstance(params, DistanceConstraintParams):
            raise TypeError(f"{fn}: params must be a DistanceConstraintParams, got "
                            f"{type(params).__name__}")
        for arg, body in (("bodyA", params.bodyA()), ("bodyB", params.bodyB())):
            if not 0 <= body < self._tree.num_bodies():
                raise ElementLookupError(
                    f"{fn}: params.{arg}() = {body} is not a body of plant "
                    f"'{self.get_name()}' (it has {self._tree.num_bodies()} bodies)")
        ctx = self._ctx(context, fn)
        held = dict(ctx.get_abstract_parameter(self._distance_params_index).get_value())
        held[k] = params
        ctx.set_abstract_parameter(self._distance_params_index, held)

    def _distance_constraint_overrides(self, context):
        """``{position among the constraints: DistanceConstraintSpec}`` that `context`
        changed (empty when none)."""
        if self._distance_params_index is None:
            return {}
        held = context._pa[self._distance_params_index].get_value()
        return {self._constraint_position[k]: params._spec for k, params in held.items()}

    def _constraint_tickets(self):
        return [self.abstract_parameter_ticket(i)
                for i in (self._constraint_status_index, self._distance_params_index)
                if i is not None]

    def _active_constraints(self, context):
        """The active flags (one per constraint, in id order) of `context`, or None when
        the plant has no constraints."""
        if self._constraint_status_index is None:
            return None
        return context.get_abstract_parameter(self._constraint_status_index).get_value()

