"""RigidBody: a body with a name, a body frame B and a default spatial inertia M_BBo_B.

Bodies are created by ``MultibodyTree.add_rigid_body`` (``MultibodyPlant.add_rigid_body``).
The default inertia is stored here; the context-dependent values (``get_mass(ctx)``,
``calc_spatial_inertia_in_body_frame(ctx)``, ...) live in the plant's Context and are
reached through the tree's state accessor (see ``multibody.tree.element.StateAccessor``).
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.body_forces import RigidBodyForcesMixin
from merganser.multibody.tree.body_kinematics import RigidBodyKinematicsMixin
from merganser.multibody.tree.element import MultibodyElement
from merganser.multibody.tree.frames import RigidBodyFrame
from merganser.multibody.tree.model_instance import DEFAULT_MODEL_INSTANCE
from merganser.multibody.tree.scoped_name import ScopedName

__all__ = ["Body", "RigidBody"]


def _zero_spatial_inertia():
    from merganser.multibody.math import SpatialInertia

    return SpatialInertia.zero()


class RigidBody(RigidBodyForcesMixin, RigidBodyKinematicsMixin, MultibodyElement):
    """A rigid body B with body frame B and default spatial inertia M_BBo_B.

    Parameters
    ----------
    body_name : str
        Body name, unique within its model instance.
    model_instance : int, optional
        Index of the model instance the body belongs to (default: the default model
        instance, 1, as in Drake).
    M_BBo_B : SpatialInertia or None
        Spatial inertia about the body origin Bo, expressed in B. ``None`` means zero
        mass and inertia (a massless body; accepted as in Drake, and reported by the
        dynamics as `SingularDynamicsError` if it makes M(q) singular).

    Notes
    -----
    Default inertial parameters are kept as the (10,) array
    ``[m, m cx, m cy, m cz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz]`` with ``c = p_BoBcm_B`` and
    ``I = I_BBo_B`` (the layout of ``CompiledModel.default_inertia``).
    """

    _kind = "body"

    def __init__(self, body_name: str, model_instance: int = DEFAULT_MODEL_INSTANCE,
                 M_BBo_B=None):
        name = body_name
        if not isinstance(name, str) or not name:
            raise ValueError(f"RigidBody: name must be a non-empty str, got {name!r}")
        super().__init__(model_instance)
        self._name = name
        self._M_BBo_B = M_BBo_B
        if M_BBo_B is None:
            params = np.zeros(10)
        else:
            params = np.asarray(M_BBo_B.to_inertia_parameters(), dtype=np.float64).copy()
            if params.shape != (10,):
                raise ValueError(
                    f"RigidBody: M_BBo_B.to_inertia_parameters() of body {name!r} has shape "
                    f"{params.shape}, expected (10,)"
                )
        params.flags.writeable = False
        self._params = params
        self._body_frame = RigidBodyFrame(self)
        # Set by MultibodyTree.finalize().
        self._is_floating_base = False
        self._floating_q_start = -1
        self._floating_v_start = -1
        self._has_quaternion_dofs = False

    # -- identity ---------------------------------------------------------------------
    def name(self) -> str:
        """The body's name."""
        return self._name

    def scoped_name(self) -> ScopedName:
        """``"<model instance name>::<body name>"``."""
        tree = self._require_tree("scoped_name")
        return ScopedName(tree.get_model_instance_name(self.model_instance()), self._name)

    def body_frame(self) -> RigidBodyFrame:
        """The body frame B (same name as the body)."""
        return self._body_frame

    def is_world(self) -> bool:
        """True for the world body (index 0)."""
        return self._index == 0

    # -- default inertia --------------------------------------------------------------
    def default_mass(self) -> float:
        """Default mass m (kg)."""
        return float(self._params[0])

    def default_com(self) -> np.ndarray:
        """Default p_BoBcm_B, the center of mass in B, shape (3,); zeros if massless."""
        m = self._params[0]
        return self._params[1:4] / m if m > 0.0 else np.zeros(3)

    def default_rotational_inertia_matrix(self) -> np.ndarray:
        """Default I_BBo_B, rotational inertia about Bo expressed in B, shape (3, 3)."""
        Ixx, Iyy, Izz, Ixy, Ixz, Iyz = self._params[4:]
        return np.array([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])

    def is_locked(self, context) -> bool:
        """True if this body's inboard joint is locked in `context` (False for the
        world), as Drake's RigidBody::is_locked."""
        tree = self._require_finalized("is_locked")
        if self.is_world():
            return False
        joint = tree._joint_of_node[int(tree.compiled_model().node_of_body[self._index])]
        return joint.is_locked(context)

    def lock(self, context) -> None:
        """Lock this floating base body's inboard joint in `context` (Drake's
        RigidBody::Lock): its velocities are zeroed and held at zero until `unlock`."""
        self._require_floating_for_lock("lock")
        self._floating_joint("lock").lock(context)

    def unlock(self, context) -> None:
        """Unlock this floating base body's inboard joint in `context`."""
        self._require_floating_for_lock("unlock")
        self._floating_joint("unlock").unlock(context)

    def _require_floating_for_lock(self, fn):
        self._require_finalized(fn)
        if not self.is_floating_base_body():
            raise RuntimeError(f"RigidBody.{fn}: body {self._name!r} is not a floating base "
                               f"body; lock its inboard joint (Joint.{fn}) instead")

    def default_unit_inertia(self):
        """G_BBo_B, the default unit inertia about the body origin (UnitInertia)."""
        return self.default_spatial_inertia().get_unit_inertia()

    def default_rotational_inertia(self):
        """I_BBo_B, the default rotational inertia about the body origin."""
        return self.default_spatial_inertia().calc_rotational_inertia()

    def default_spatial_inertia(self):
        """Default spatial inertia M_BBo_B (a SpatialInertia; zero if none was given)."""
        if self._M_BBo_B is None:
            return _zero_spatial_inertia()
        return self._M_BBo_B

    def default_inertia_parameters(self) -> np.ndarray:
        """Default inertial parameters, read-only (10,) array (see class Notes)."""
        return self._params

    # -- topology (after finalize) ----------------------------------------------------
    def is_floating_base_body(self) -> bool:
        """True if finalize() mobilized this body with an added 6-dof joint to world."""
        self._require_finalized("is_floating_base_body")
        return self._is_floating_base

    def is_floating(self) -> bool:
        """Alias of `is_floating_base_body` (Drake's older name)."""
        self._require_finalized("is_floating")
        return self._is_floating_base

    def has_quaternion_dofs(self) -> bool:
        """True if the body's inboard joint uses a quaternion (QuaternionFloatingJoint)."""
        self._require_finalized("has_quaternion_dofs")
        return self._has_quaternion_dofs

    def floating_positions_start(self) -> int:
        """Index in q of this floating base body's first position."""
        self._require_finalized("floating_positions_start")
        self._require_floating("floating_positions_start")
        return self._floating_q_start

    def floating_velocities_start(self) -> int:
        """Index in v of this floating base body's first velocity."""
        self._require_finalized("floating_velocities_start")
        self._require_floating("floating_velocities_start")
        return self._floating_v_start

    def floating_velocities_start_in_v(self) -> int:
        """Index in v of this floating base body's first velocity (pydrake's current name
        for `floating_velocities_start`)."""
        self._require_finalized("floating_velocities_start_in_v")
        self._require_floating("floating_velocities_start_in_v")
        return self._floating_v_start

    def _require_floating(self, func: str) -> None:
        if not self._is_floating_base:
            raise ValueError(
                f"RigidBody.{func}(): body {self._name!r} is not a floating base body (it has "
                f"an inboard joint, or its model instance uses weld as base body joint type)"
            )

    # -- context-dependent (through the plant) -----------------------------------------
    def get_mass(self, context) -> float:
        """Mass stored in `context` (kg)."""
        return self._state("get_mass").get_body_mass(context, self)

    def set_mass(self, context, mass: float) -> None:
        """Set the mass in `context`, keeping p_BoBcm_B and the unit inertia G_BBo_B."""
        self._state("set_mass").set_body_mass(context, self, mass)

    def calc_spatial_inertia_in_body_frame(self, context):
        """Return M_BBo_B stored in `context` (SpatialInertia)."""
        return self._state("calc_spatial_inertia_in_body_frame").get_body_spatial_inertia(
            context, self
        )

    def set_spatial_inertia_in_body_frame(self, context, M_BBo_B=None, *, M_Bo_B=None) -> None:
        """Set M_BBo_B in `context` (``M_Bo_B=`` is pydrake's keyword)."""
        if (M_BBo_B is None) == (M_Bo_B is None):
            raise TypeError("RigidBody.set_spatial_inertia_in_body_frame: give the spatial "
                            "inertia once, as M_BBo_B (or pydrake's M_Bo_B)")
        self._state("set_spatial_inertia_in_body_frame").set_body_spatial_inertia(
            context, self, M_BBo_B if M_Bo_B is None else M_Bo_B
        )

    def calc_center_of_mass_in_body_frame(self, context) -> np.ndarray:
        """p_BoBcm_B (3,) stored in `context`."""
        return self.calc_spatial_inertia_in_body_frame(context).get_com()

    def set_center_of_mass_in_body_frame(self, context, com) -> None:
        """Set p_BoBcm_B = `com` in `context`, keeping the mass and G_BBo_B, the unit
        inertia about the body origin (Drake's advanced setter; the inertia about the
        center of mass changes)."""
        from merganser.multibody.math import SpatialInertia

        M = self.calc_spatial_inertia_in_body_frame(context)
        self.set_spatial_inertia_in_body_frame(
            context, SpatialInertia(M.get_mass(), com, M.get_unit_inertia()))

    def set_center_of_mass_in_body_frame_and_preserve_central_inertia(
            self, context, center_of_mass_position) -> None:
        """Set p_BoBcm_B in `context`, keeping the mass and the inertia about the center of
        mass (G_BBo_B changes by the parallel-axis theorem)."""
        from merganser.multibody.math import SpatialInertia

        M = self.calc_spatial_inertia_in_body_frame(context)
        I_BBcm_B = M.shift(M.get_com()).calc_rotational_inertia()
        self.set_spatial_inertia_in_body_frame(context, SpatialInertia.make_from_central_inertia(
            M.get_mass(), center_of_mass_position, I_BBcm_B))

    def eval_pose_in_world(self, context):
        """Return X_WB for the configuration in `context` (RigidTransform)."""
        return self._state("eval_pose_in_world").eval_body_pose_in_world(context, self)

    def eval_spatial_velocity_in_world(self, context):
        """Return V_WB_W, the spatial velocity of Bo in world, for `context`."""
        return self._state("eval_spatial_velocity_in_world").eval_body_spatial_velocity_in_world(
            context, self
        )



Body = RigidBody
"""pydrake's dispreferred alias of RigidBody (``Body_``)."""
