"""Joint: the user-facing base class of all joints.

A joint connects a frame F on the parent body P (``frame_on_parent``) to a frame M on
the child body B (``frame_on_child``) and allows the relative motion X_FM(q) of its
type. It carries a name, limits, damping, armature (a merganser extension, see
`set_default_armature`) and default positions; the motion itself is
computed by the kernels from the joint's type code (``JointType``) once the tree is
compiled by ``finalize()``.
"""

from __future__ import annotations

import numpy as np

from merganser.framework.compiled_form_changes import note_compiled_form_change
from merganser.geometry import Quaternion, RigidTransform, RotationMatrix
from merganser.multibody.tree.element import MultibodyElement
from merganser.multibody.tree.frames import Frame

__all__ = ["Joint", "as_vector", "position_limits_generation", "unit_axis"]

_position_limits_generation = [0]


def position_limits_generation():
    """The number of `Joint.set_position_limits` calls in this process (int), so that a
    discrete stepper that reads the limits once re-reads them after a change."""
    return _position_limits_generation[0]


def as_vector(x, size: int, func: str, arg: str, *, nonnegative: bool = False) -> np.ndarray:
    """Validate `x` as a float64 vector of `size` entries (a scalar is broadcast).

    Parameters
    ----------
    x : float or array_like
        The value; a scalar is repeated `size` times.
    size : int
        Expected number of entries.
    func, arg : str
        Function and argument names used in the error message.
    nonnegative : bool
        Also require every entry to be >= 0 and finite.

    Returns
    -------
    ndarray, shape (size,)
        A new float64 array.

    Raises
    ------
    ValueError
        If the size is wrong, an entry is NaN, or (with `nonnegative`) negative/infinite.
    """
    a = np.array(x, dtype=np.float64)
    if a.ndim == 0:
        a = np.full(size, float(a))
    elif a.ndim > 1 and a.size == size:
        a = a.reshape(size)
    if a.shape != (size,):
        raise ValueError(f"{func}: {arg} has shape {np.shape(x)}, expected ({size},)")
    if np.any(np.isnan(a)):
        raise ValueError(f"{func}: {arg} contains NaN: {a.tolist()}")
    if nonnegative and not np.all((a >= 0.0) & np.isfinite(a)):
        raise ValueError(f"{func}: {arg} must be finite and >= 0, got {a.tolist()}")
    return a


def unit_axis(axis, func: str) -> np.ndarray:
    """Return `axis` normalized to unit length, shape (3,).

    Raises
    ------
    ValueError
        If `axis` is not a finite 3-vector or its norm is (nearly) zero.
    """
    a = np.array(axis, dtype=np.float64).reshape(-1)
    if a.shape != (3,) or not np.all(np.isfinite(a)):
        raise ValueError(f"{func}: axis must be a finite vector of shape (3,), got {axis!r}")
    norm = float(np.linalg.norm(a))
    if norm < 1e-12:
        raise ValueError(f"{func}: axis must be non-zero, got {a.tolist()} (norm {norm:.3g})")
    return a / norm


class _ClassConstant:
    """A read-only attribute computed from the class (readable on class and instance)."""

    def __init__(self, fget):
        self._fget = fget
        self.__doc__ = fget.__doc__

    def __get__(self, obj, cls=None):
        return self._fget(type(obj) if cls is None else cls)


class Joint(MultibodyElement):
    """Base class of joints between frame F on the parent body and frame M on the child.

    Parameters
    ----------
    name : str
        Joint name, unique within its model instance.
    frame_on_parent : Frame
        Frame F, fixed to the parent body P.
    frame_on_child : Frame
        Frame M, fixed to the child body B.
    damping : array_like, shape (nv,)
        Viscous damping per generalized velocity (>= 0).
    pos_lower_limits, pos_upper_limits : array_like, shape (nq,), optional
        Position limits; ±inf when omitted.

    Notes
    -----
    Subclasses set the class attributes ``_type_name`` (Drake's type name, e.g.
    ``"revolute"``), ``_type_code_name`` (the ``JointType`` member name),
    ``_position_suffixes`` and ``_velocity_suffixes`` (Drake's coordinate name
    suffixes, which also fix nq and nv) and ``_default_q`` (the zero configuration).
    The joint belongs to its child frame's model instance, as in Drake.
    """

    _kind = "joint"
    _type_name = "joint"
    _type_code_name = ""
    _position_suffixes: tuple[str, ...] = ()
    _velocity_suffixes: tuple[str, ...] = ()
    _default_q: tuple[float, ...] = ()

    def __init__(
        self,
        name: str,
        frame_on_parent: Frame,
        frame_on_child: Frame,
        damping=0.0,
        pos_lower_limits=None,
        pos_upper_limits=None,
    ):
        cls = type(self).__name__
        if not isinstance(name, str) or not name:
            raise ValueError(f"{cls}: name must be a non-empty str, got {name!r}")
        for arg, frame in (
            ("frame_on_parent", frame_on_parent),
            ("frame_on_child", frame_on_child),
        ):
            if not isinstance(frame, Frame):
                raise TypeError(
                    f"{cls} {name!r}: {arg} must be a Frame, got {type(frame).__name__}"
                )
        if frame_on_parent.body() is frame_on_child.body():
            raise ValueError(
                f"{cls} {name!r}: frame_on_parent {frame_on_parent.name()!r} and frame_on_child "
                f"{frame_on_child.name()!r} are on the same body {frame_on_child.body().name()!r}; "
                f"a joint must connect two different bodies"
            )
        super().__init__(frame_on_child.model_instance())
        self._name = name
        self._frame_on_parent = frame_on_parent
        self._frame_on_child = frame_on_child
        nq, nv = self.num_positions(), self.num_velocities()
        self._damping = as_vector(damping, nv, cls, "damping", nonnegative=True)
        self._armature = np.zeros(nv)
        lower = -np.inf if pos_lower_limits is None else pos_lower_limits
        upper = np.inf if pos_upper_limits is None else pos_upper_limits
        self._q_lower, self._q_upper = self._check_limits(lower, upper, nq, cls, "position")
        self._v_lower, self._v_upper = np.full(nv, -np.inf), np.full(nv, np.inf)
        self._a_lower, self._a_upper = np.full(nv, -np.inf), np.full(nv, np.inf)
        self._default_positions = np.array(self._default_q, dtype=np.float64)
        self._is_ephemeral = False
        # Set by MultibodyTree.finalize().
        self._q_start = -1
        self._v_start = -1
        self._coordinate_prefix = name

    # -- identity -----------------------------------------------------------------------
    def name(self) -> str:
        """The joint's name."""
        return self._name

    @_ClassConstant
    def kTypeName(cls):  # noqa: N802 (Drake's constant, the same in both spellings)
        """Drake's type name of the class, e.g. ``RevoluteJoint.kTypeName == "revolute"``."""
        return cls._type_name

    def type_name(self) -> str:
        """Drake's type name, e.g. ``"revolute"``."""
        return self._type_name

    def is_ephemeral(self) -> bool:
        """True for joints added by ``finalize()`` to mobilize free bodies."""
        return self._is_ephemeral

    def frame_on_parent(self) -> Frame:
        """Frame F on the parent body."""
        return self._frame_on_parent

    def frame_on_child(self) -> Frame:
        """Frame M on the child body."""
        return self._frame_on_child

    def parent_body(self):
        """The parent body P (the body of frame F)."""
        return self._frame_on_parent.body()

    def child_body(self):
        """The child body B (the body of frame M)."""
        return self._frame_on_child.body()

    # -- coordinates --------------------------------------------------------------------
    def num_positions(self) -> int:
        """Number of generalized positions nq of this joint."""
        return len(self._position_suffixes)

    def num_velocities(self) -> int:
        """Number of generalized velocities nv of this joint."""
        return len(self._velocity_suffixes)

    def position_start(self) -> int:
        """Index of this joint's first position in the plant's q (after finalize)."""
        self._require_finalized("position_start")
        return self._q_start

    def velocity_start(self) -> int:
        """Index of this joint's first velocity in the plant's v (after finalize)."""
        self._require_finalized("velocity_start")
        return self._v_start

    def position_suffix(self, i: int) -> str:
        """Drake's suffix of position `i`, e.g. ``"q"`` (revolute) or ``"qw"``."""
        return self._position_suffixes[i]

    def velocity_suffix(self, i: int) -> str:
        """Drake's suffix of velocity `i`, e.g. ``"w"`` (revolute) or ``"vx"``."""
        return self._velocity_suffixes[i]

    def can_rotate(self) -> bool:
        """True if the joint allows rotation of M relative to F."""
        return False

    def can_translate(self) -> bool:
        """True if the joint allows translation of M relative to F."""
        return False

    # -- limits -------------------------------------------------------------------------
    @staticmethod
    def _check_limits(lower, upper, n, func, what):
        lo = as_vector(lower, n, func, f"{what} lower limits")
        hi = as_vector(upper, n, func, f"{what} upper limits")
        if np.any(lo > hi):
            raise ValueError(
                f"{func}: {what} lower limits {lo.tolist()} exceed upper limits {hi.tolist()}"
            )
        return lo, hi

    def position_lower_limits(self) -> np.ndarray:
        """Position lower limits, shape (nq,) (-inf where none)."""
        return self._q_lower.copy()

    def position_upper_limits(self) -> np.ndarray:
        """Position upper limits, shape (nq,) (+inf where none)."""
        return self._q_upper.copy()

    def velocity_lower_limits(self) -> np.ndarray:
        """Velocity lower limits, shape (nv,)."""
        return self._v_lower.copy()

    def velocity_upper_limits(self) -> np.ndarray:
        """Velocity upper limits, shape (nv,)."""
        return self._v_upper.copy()

    def acceleration_lower_limits(self) -> np.ndarray:
        """Acceleration lower limits, shape (nv,)."""
        return self._a_lower.copy()

    def acceleration_upper_limits(self) -> np.ndarray:
        """Acceleration upper limits, shape (nv,)."""
        return self._a_upper.copy()

    def set_position_limits(self, lower_limits, upper_limits) -> None:
        """Set the position limits, each of shape (nq,); allowed after finalize, as
        in Drake (the plant's getters read the joints)."""
        self._q_lower, self._q_upper = self._check_limits(
            lower_limits,
            upper_limits,
            self.num_positions(),
            "Joint.set_position_limits",
            "position",
        )
        _position_limits_generation[0] += 1
        note_compiled_form_change()     # compiled contact steps read the limits as constants

    def set_velocity_limits(self, lower_limits, upper_limits) -> None:
        """Set the velocity limits, each of shape (nv,); allowed after finalize, as
        in Drake (the plant's getters read the joints)."""
        self._v_lower, self._v_upper = self._check_limits(
            lower_limits,
            upper_limits,
            self.num_velocities(),
            "Joint.set_velocity_limits",
            "velocity",
        )

    def set_acceleration_limits(self, lower_limits, upper_limits) -> None:
        """Set the acceleration limits, each of shape (nv,); allowed after finalize, as
        in Drake (the plant's getters read the joints)."""
        self._a_lower, self._a_upper = self._check_limits(
            lower_limits,
            upper_limits,
            self.num_velocities(),
            "Joint.set_acceleration_limits",
            "acceleration",
        )

    # -- damping ------------------------------------------------------------------------
    def default_damping_vector(self) -> np.ndarray:
        """Viscous damping per generalized velocity, shape (nv,)."""
        return self._damping.copy()

    def damping(self):
        """Default damping: the (nv,) vector (scalar for single-coefficient joints)."""
        return self.default_damping_vector()

    def set_default_damping_vector(self, damping) -> None:
        """Set the damping vector, shape (nv,), entries >= 0 (before finalize)."""
        self._require_not_finalized("set_default_damping_vector")
        self._damping = as_vector(
            damping,
            self.num_velocities(),
            "Joint.set_default_damping_vector",
            "damping",
            nonnegative=True,
        )

    def set_default_damping(self, damping) -> None:
        """Set the damping: a scalar for every velocity, or a (nv,) vector (before finalize)."""
        self.set_default_damping_vector(damping)

    def get_damping_vector(self, context) -> np.ndarray:
        """The damping (nv,) held in `context` (the default until `set_damping_vector`),
        as Drake's Joint::GetDampingVector."""
        return self._state("get_damping_vector").get_joint_damping(context, self)

    def set_damping_vector(self, context, damping) -> None:
        """Set this joint's damping (nv,), entries >= 0, in `context` only (the default and
        other Contexts keep theirs), as Drake's Joint::SetDampingVector; the dynamics of
        that Context use it."""
        d = as_vector(damping, self.num_velocities(), "Joint.set_damping_vector", "damping",
                      nonnegative=True)
        self._state("set_damping_vector").set_joint_damping(context, self, d)

    # -- armature (merganser extension) -------------------------------------------------
    def default_armature_vector(self) -> np.ndarray:
        """Armature per generalized velocity (kg·m² or kg), shape (nv,); zeros by default."""
        return self._armature.copy()

    def default_armature(self):
        """Default armature: the (nv,) vector (scalar for single-dof joints)."""
        return self.default_armature_vector()

    def set_default_armature_vector(self, armature) -> None:
        """Set the armature vector, shape (nv,), entries >= 0 (before finalize).

        The armature is added to the diagonal of the mass matrix at this joint's
        velocities, exactly as an actuator's reflected inertia ρ² Iᵣ
        (`JointActuator.default_reflected_inertia`), in every dynamics computation. It is
        MuJoCo's joint ``armature`` and a merganser extension: Drake has reflected inertia
        on joint actuators only, so it serves joints that no actuator drives and joints
        with several velocities (ball, floating).
        """
        self._require_not_finalized("set_default_armature_vector")
        self._armature = as_vector(armature, self.num_velocities(),
                                   "Joint.set_default_armature_vector", "armature",
                                   nonnegative=True)

    def set_default_armature(self, armature) -> None:
        """Set the armature: a scalar for every velocity, or a (nv,) vector (before
        finalize); see `set_default_armature_vector`."""
        self.set_default_armature_vector(armature)

    # -- default positions --------------------------------------------------------------
    def set_default_positions(self, default_positions) -> None:
        """Set the default positions q₀ of this joint, shape (nq,)."""
        q = as_vector(default_positions, self.num_positions(), "Joint.set_default_positions", "q")
        if not np.all(np.isfinite(q)):
            raise ValueError(f"Joint.set_default_positions: q must be finite, got {q.tolist()}")
        self._default_positions = q

    def get_default_positions(self) -> np.ndarray:
        """Default positions q₀, shape (nq,) (the zero configuration unless set)."""
        return self._default_positions.copy()

    default_positions = get_default_positions

    # -- default pose (Drake: floating joints only) -------------------------------------------
    def _no_pose(self, fn):
        return RuntimeError(
            f"Joint.{fn}: joint {self.name()!r} is a {self.type_name()} joint; only floating "
            f"(6-dof) joints represent a pose X_FM (as in Drake); set its default positions "
            f"with set_default_positions")

    def get_default_pose(self):
        """The default X_FM (RigidTransform) of a floating joint (Drake's GetDefaultPose).

        Raises
        ------
        RuntimeError
            For joints that are not floating (6-dof), as Drake.
        """
        raise self._no_pose("get_default_pose")

    def set_default_pose(self, X_FM) -> None:
        """Set the default positions of a floating joint from X_FM (Drake's
        SetDefaultPose).

        Raises
        ------
        RuntimeError
            For joints that are not floating (6-dof), as Drake.
        """
        raise self._no_pose("set_default_pose")

    def get_default_pose_pair(self):
        """The default pose as (Quaternion q_FM, translation p_FoMo_F (3,)) (Drake's
        GetDefaultPosePair; floating joints only)."""
        X = self.get_default_pose()
        return X.rotation().to_quaternion(), X.translation()

    def set_default_pose_pair(self, q_FM, p_FM) -> None:
        """Set the default pose from a unit quaternion [w, x, y, z] and a translation
        (Drake's SetDefaultPosePair; floating joints only)."""
        from_quaternion = RotationMatrix(quaternion=Quaternion(np.asarray(q_FM, dtype=float)))
        self.set_default_pose(RigidTransform(from_quaternion, p_FM))

    # -- context access (through the plant) ---------------------------------------------
    def get_positions(self, context) -> np.ndarray:
        """This joint's positions in `context`, shape (nq,)."""
        q = self._state("get_positions").get_positions(context)
        return np.array(q[self._q_start : self._q_start + self.num_positions()], dtype=np.float64)

    def set_positions(self, context, positions) -> None:
        """Write this joint's positions, shape (nq,), into `context`."""
        q = as_vector(positions, self.num_positions(), f"{type(self).__name__}.set_positions", "q")
        self._state("set_positions").set_positions_slice(context, self._q_start, q)

    def _one(self, fn, count):
        if count != 1:
            raise RuntimeError(f"Joint.{fn}: joint {self.name()!r} ({self.type_name()}) has "
                               f"{count} coordinates; {fn} is for single-dof joints only")

    def get_one_position(self, context) -> float:
        """The position of a single-dof joint in `context` (Drake's GetOnePosition).

        Raises
        ------
        RuntimeError
            If the joint does not have exactly one position.
        """
        self._one("get_one_position", self.num_positions())
        return float(self.get_positions(context)[0])

    def get_one_velocity(self, context) -> float:
        """The velocity of a single-dof joint in `context` (Drake's GetOneVelocity).

        Raises
        ------
        RuntimeError
            If the joint does not have exactly one velocity.
        """
        self._one("get_one_velocity", self.num_velocities())
        return float(self.get_velocities(context)[0])

    def add_in_one_force(self, context, joint_dof, joint_tau, forces) -> None:
        """Add the generalized force `joint_tau` on this joint's velocity `joint_dof`
        (0 <= joint_dof < num_velocities()) into `forces` (a MultibodyForces)."""
        k = int(joint_dof)
        if not 0 <= k < self.num_velocities():
            raise ValueError(f"Joint.add_in_one_force: joint {self.name()!r}: joint_dof must be "
                             f"in [0, {self.num_velocities()}), got {joint_dof!r}")
        forces.generalized_forces()[self.velocity_start() + k] += float(joint_tau)

    def add_in_damping(self, context, forces) -> None:
        """Add this joint's damping forces, τ = -d v (d the damping vector, v the joint's
        velocities in `context`), into `forces` (a MultibodyForces)."""
        v = self.get_velocities(context)
        start = self.velocity_start()
        forces.generalized_forces()[start:start + len(v)] -= self.default_damping_vector() * v

    def get_velocities(self, context) -> np.ndarray:
        """This joint's velocities in `context`, shape (nv,)."""
        v = self._state("get_velocities").get_velocities(context)
        return np.array(v[self._v_start : self._v_start + self.num_velocities()], dtype=np.float64)

    def set_velocities(self, context, velocities) -> None:
        """Write this joint's velocities, shape (nv,), into `context`."""
        v = as_vector(
            velocities, self.num_velocities(), f"{type(self).__name__}.set_velocities", "v"
        )
        self._state("set_velocities").set_velocities_slice(context, self._v_start, v)

    # -- locking (Drake's Joint::Lock, kept in the plant's Context) -----------------------
    def lock(self, context) -> None:
        """Lock this joint in `context`: its velocities are set to zero and held there
        (the joint acts as a weld at its current position) until `unlock`."""
        self._state("lock").set_joint_locked(context, self, True)

    def unlock(self, context) -> None:
        """Unlock this joint in `context` (its velocities are free again)."""
        self._state("unlock").set_joint_locked(context, self, False)

    def is_locked(self, context) -> bool:
        """True if this joint is locked in `context`."""
        return self._state("is_locked").is_joint_locked(context, self)

    # -- compilation --------------------------------------------------------------------
    def _compiled_axis(self) -> np.ndarray:
        """Unit axis in F for REVOLUTE/PRISMATIC/SCREW, zeros otherwise, shape (3,)."""
        return np.zeros(3)

    def _compiled_screw_pitch(self) -> float:
        """Screw pitch (m per revolution) for SCREW, 0 otherwise."""
        return 0.0

    def _compiled_X_FM(self) -> np.ndarray:
        """Fixed X_FM folded into X_PF (non-identity only for welds), shape (4, 4)."""
        return np.eye(4)

