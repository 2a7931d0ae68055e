"""MultibodyTree: the registry of a plant's elements and their compilation at finalize().

The tree owns the model instances, bodies, frames, joints, actuators, force elements and
constraint specs that a user (or a parser) adds, checks names and lifecycle, and at
``finalize()`` compiles them into the immutable `CompiledModel` read by the kernels
(see ``docs/compiled_model.md``), plus the index and name tables the plant needs.
``MultibodyPlant`` is a thin facade over this class, so the method names are the
plant's (``add_rigid_body``, ``get_body_by_name``, ``get_position_names``, ...).

Lifecycle: elements can be added only before ``finalize()``; coordinate queries
(``num_positions()``, ``joint.position_start()``, names, ...) need ``finalize()``.
Context-dependent element accessors reach the plant's Context through a state
accessor attached with `set_state_accessor` (see `multibody.tree.element.StateAccessor`).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from merganser.geometry import RigidTransform
from merganser.multibody.math import check_spatial_inertia
from merganser.multibody.tree.compiler import compile_model
from merganser.multibody.tree.errors import (
    DuplicateElementError, ElementLookupError, TopologyError, TreeLifecycleError, list_names,
)
from merganser.multibody.tree.force_elements import ForceElement, UniformGravityFieldElement
from merganser.multibody.tree.frames import Frame, pose_matrix
from merganser.multibody.tree.joint_actuator import JointActuator
from merganser.multibody.tree.indices import (
    BodyIndex, ForceElementIndex, FrameIndex, JointActuatorIndex, JointIndex, ModelInstanceIndex,
)
from merganser.multibody.tree.joints import (
    Joint,
    QuaternionFloatingJoint,
    RpyFloatingJoint,
    WeldJoint,
)
from merganser.multibody.tree.model_instance import (
    BaseBodyJointType,
    DEFAULT_MODEL_INSTANCE,
    DEFAULT_MODEL_INSTANCE_NAME,
    WORLD_MODEL_INSTANCE,
    WORLD_MODEL_INSTANCE_NAME,
    ModelInstance,
)
from merganser.multibody.tree.rigid_body import RigidBody
from merganser.multibody.tree.topology import choose_base_bodies, order_nodes
from merganser.multibody.tree.tree_constraints import TreeConstraintsMixin
from merganser.multibody.tree.tree_coordinates import TreeCoordinatesMixin
from merganser.multibody.tree.tree_lookups import TreeLookupsMixin, is_index
from merganser.multibody.tree.tree_removal import TreeRemovalMixin

__all__ = ["MultibodyTree"]

_BASE_JOINT_CLASSES = {
    "quaternion_floating": QuaternionFloatingJoint,
    "rpy_floating": RpyFloatingJoint,
    "weld": WeldJoint,
}


class MultibodyTree(TreeLookupsMixin, TreeCoordinatesMixin, TreeConstraintsMixin,
                    TreeRemovalMixin):
    """Registry of bodies, frames, joints, actuators, force elements and constraints.

    Parameters
    ----------
    strict_inertia : bool
        If True, a spatial inertia that violates a physical-validity condition is an
        error when a body is added; otherwise the soft violations (triangle inequality)
        only warn (``InertiaValidityWarning``).

    Notes
    -----
    Index conventions follow Drake: the world body, the world frame and the world model
    instance have index 0; model instance 1 is the default one; bodies, frames, joints,
    actuators and force elements are numbered in the order they are added (the
    gravity field is force element 0). Joints added by ``finalize()`` for free bodies
    come after the user's joints.
    """

    def __init__(self, strict_inertia: bool = False):
        self._strict_inertia = bool(strict_inertia)
        self._finalized = False
        self._state_accessor = None
        self._compiled = None
        self._tables = None
        self._model_instances: list[ModelInstance] = []
        self._instance_by_name: dict[str, int] = {}
        self._bodies: list[RigidBody] = []
        self._frames: list[Frame] = []
        self._joints: list[Joint] = []                  # live joints, in index order
        self._actuators: list[JointActuator] = []       # live actuators (u order)
        self._joint_slots: list[Joint | None] = []      # by index; None: removed
        self._actuator_slots: list[JointActuator | None] = []
        self._force_elements: list[ForceElement] = []
        self._constraints: list = []
        self._by_name = {kind: defaultdict(list) for kind in ("body", "frame", "joint", "actuator")}
        self._base_body_joint_type = BaseBodyJointType.kQuaternionFloatingJoint
        self._default_free_body_poses: dict[int, np.ndarray] = {}
        self._joint_between: dict[tuple[int, int], Joint] = {}

        self._new_model_instance(WORLD_MODEL_INSTANCE_NAME)
        self._new_model_instance(DEFAULT_MODEL_INSTANCE_NAME)
        self._register_body(RigidBody("world", WORLD_MODEL_INSTANCE, None))
        self._gravity = self.add_force_element(UniformGravityFieldElement())

    # =====================================================================================
    # lifecycle
    # =====================================================================================
    def is_finalized(self) -> bool:
        """True once `finalize` has run."""
        return self._finalized

    def _throw_if_finalized(self, func: str, what: str) -> None:
        if self._finalized:
            raise TreeLifecycleError(
                f"{func}() after finalize() is not allowed; add all {what} before calling "
                f"finalize()"
            )

    def _throw_if_not_finalized(self, func: str) -> None:
        if not self._finalized:
            raise TreeLifecycleError(f"{func}() requires finalize(); call finalize() first")

    def set_state_accessor(self, accessor) -> None:
        """Attach the plant's `StateAccessor` used by context-dependent element methods."""
        self._state_accessor = accessor

    def state_accessor(self):
        """The attached state accessor, or None."""
        return self._state_accessor

    # =====================================================================================
    # model instances
    # =====================================================================================
    def _new_model_instance(self, name: str) -> int:
        index = ModelInstanceIndex(len(self._model_instances))
        self._model_instances.append(ModelInstance(index, name))
        self._instance_by_name[name] = index
        return index

    def world_model_instance(self) -> int:
        """Index of the world model instance (0)."""
        return WORLD_MODEL_INSTANCE

    def default_model_instance(self) -> int:
        """Index of the default model instance (1)."""
        return DEFAULT_MODEL_INSTANCE

    def add_model_instance(self, name: str) -> int:
        """Create a model instance named `name` and return its index (2, 3, ...)."""
        self._throw_if_finalized("add_model_instance", "model instances")
        if not isinstance(name, str) or not name:
            raise ValueError(f"add_model_instance: name must be a non-empty str, got {name!r}")
        if name in self._instance_by_name:
            raise ValueError(
                f"add_model_instance: a model instance named {name!r} already exists (index "
                f"{self._instance_by_name[name]}); model instance names must be unique"
            )
        return self._new_model_instance(name)

    def rename_model_instance(self, model_instance: int, name: str) -> None:
        """Give `model_instance` the new unique `name` (before finalize, as Drake)."""
        fn = "rename_model_instance"
        self._throw_if_finalized(fn, "model instances")
        mi = self._check_instance(model_instance, fn)
        if not isinstance(name, str) or not name:
            raise ValueError(f"{fn}: name must be a non-empty str, got {name!r}")
        old = self._model_instances[mi].name
        if name == old:
            return
        if name in self._instance_by_name:
            raise ValueError(f"{fn}: a model instance named {name!r} already exists (index "
                             f"{self._instance_by_name[name]}); model instance names must be "
                             f"unique")
        del self._instance_by_name[old]
        self._instance_by_name[name] = mi
        self._model_instances[mi].name = name

    def num_model_instances(self) -> int:
        """Number of model instances (world and default included)."""
        return len(self._model_instances)

    def _check_instance(self, model_instance, func: str) -> int:
        if not is_index(model_instance) or not 0 <= model_instance < len(self._model_instances):
            raise ElementLookupError(
                f"{func}: model_instance {model_instance!r} is not a valid model instance index; "
                f"expected an int in 0..{len(self._model_instances) - 1}"
            )
        return int(model_instance)

    def get_model_instance_name(self, model_instance: int) -> str:
        """Name of model instance `model_instance`."""
        return self._model_instances[
            self._check_instance(model_instance, "get_model_instance_name")
        ].name

    def get_model_instance_by_name(self, name: str) -> int:
        """Index of the model instance named `name`."""
        if name not in self._instance_by_name:
            raise ElementLookupError(
                f"get_model_instance_by_name: there is no model instance named {name!r}; "
                f"valid names are: {list_names(self._instance_by_name)}"
            )
        return self._instance_by_name[name]

    def has_model_instance_named(self, name: str) -> bool:
        """True if a model instance named `name` exists."""
        return name in self._instance_by_name

    # =====================================================================================
    # bodies
    # =====================================================================================
    def _register_body(self, body: RigidBody) -> RigidBody:
        body._tree = body.body_frame()._tree = self
        body._index = BodyIndex(len(self._bodies))
        body.body_frame()._index = FrameIndex(len(self._frames))
        self._bodies.append(body)
        self._frames.append(body.body_frame())
        instance = self._model_instances[body.model_instance()]
        instance.body_indices.append(body._index)
        instance.frame_indices.append(body.body_frame()._index)
        self._by_name["body"][body.name()].append(body)
        self._by_name["frame"][body.name()].append(body.body_frame())
        return body

    def add_rigid_body(self, name: str, *args, model_instance=None, M_BBo_B=None) -> RigidBody:
        """Add a rigid body: ``(name, M_BBo_B)`` or ``(name, model_instance, M_BBo_B)``.

        Parameters
        ----------
        name : str
            Body name, unique within its model instance.
        model_instance : int, optional
            Model instance; the default model instance (1) when omitted.
        M_BBo_B : SpatialInertia, optional
            Spatial inertia about the body origin Bo, expressed in B; zero mass and
            inertia when omitted (accepted as in Drake; if it makes M(q) singular the
            dynamics raise ``SingularDynamicsError``). It is checked with ``check_spatial_inertia`` (a warning, or an
            error with ``strict_inertia``). As in Drake, ``SpatialInertia.NaN()`` (every entry
            NaN, "not set yet") is accepted unchecked: the body's inertia is then a
            placeholder to be set in the Context (dynamics computed before that are NaN).

        Returns
        -------
        RigidBody
            The new body (its body frame is added with it).
        """
        func = "add_rigid_body"
        self._throw_if_finalized(func, "bodies")
        if len(args) > 2:
            raise TypeError(
                f"{func}: expected (name, [model_instance,] M_BBo_B), got {len(args) + 1} arguments"
            )
        if len(args) == 2:
            model_instance, M_BBo_B = args
        elif len(args) == 1:
            if is_index(args[0]):
                model_instance = args[0]
            else:
                M_BBo_B = args[0]
        if model_instance is None:
            model_instance = DEFAULT_MODEL_INSTANCE
        model_instance = self._check_instance(model_instance, func)
        if model_instance == WORLD_MODEL_INSTANCE:
            raise ValueError(
                f"{func}: body {name!r}: model instance 0 is reserved for the world body; use "
                f"the default model instance (1) or add_model_instance()"
            )
        if not isinstance(name, str) or not name:
            raise ValueError(f"{func}: name must be a non-empty str, got {name!r}")
        if M_BBo_B is not None:
            if not hasattr(M_BBo_B, "to_inertia_parameters"):
                raise TypeError(
                    f"{func}: M_BBo_B of body {name!r} must be a SpatialInertia, got "
                    f"{type(M_BBo_B).__name__}"
                )
            if not np.isnan(M_BBo_B.copy_to_full_matrix6()).all():
                check_spatial_inertia(M_BBo_B, strict=self._strict_inertia, name=name)
        self._check_unique("body", name, model_instance, func)
        self._check_unique("frame", name, model_instance, func)
        return self._register_body(RigidBody(name, model_instance, M_BBo_B))

    def world_body(self) -> RigidBody:
        """The world body (index 0)."""
        return self._bodies[0]

    def world_frame(self) -> Frame:
        """The world frame (frame index 0)."""
        return self._frames[0]

    def num_bodies(self) -> int:
        """Number of bodies, world included."""
        return len(self._bodies)

    def get_body(self, body_index: int) -> RigidBody:
        """Body with index `body_index` (pydrake's keyword)."""
        return self._get_indexed(self._bodies, body_index, "get_body", "bodies")

    def get_body_indices(self, model_instance: int) -> list[int]:
        """Indices of the bodies of `model_instance`, in order of addition."""
        mi = self._check_instance(model_instance, "get_body_indices")
        return list(self._model_instances[mi].body_indices)

    def set_default_free_body_pose(self, body: RigidBody, X_PB) -> None:
        """Set the default pose X_PB of a body that will be (or is) a floating base body:
        its pose in the parent of its floating joint, the world, so X_PB = X_WB
        (pydrake's keyword).

        Before ``finalize()`` the pose is stored and becomes the default position of the
        joint added for the body; afterwards the body must be a floating base body.
        """
        self._check_element(body, self._bodies, "set_default_free_body_pose", "body")
        X = pose_matrix(X_PB, "set_default_free_body_pose", "X_PB")
        if not self._finalized:
            self._default_free_body_poses[body.index()] = X
            return
        joint = self._floating_joint_of(body, "set_default_free_body_pose")
        joint.set_default_pose(RigidTransform(X))

    def get_default_free_body_pose(self, body: RigidBody):
        """Default pose X_WB of a (future) floating base body (identity unless set)."""
        self._check_element(body, self._bodies, "get_default_free_body_pose", "body")
        if not self._finalized:
            return RigidTransform(self._default_free_body_poses.get(body.index(), np.eye(4)))
        return self._floating_joint_of(body, "get_default_free_body_pose").get_default_pose()

    def _floating_joint_of(self, body, func):
        if not body.is_floating_base_body():
            raise ValueError(f"{func}: body {body.name()!r} is not a floating base body")
        node = self._compiled.node_of_body[body.index()]
        return self._joint_of_node[node]

    def get_floating_base_bodies(self) -> set[int]:
        """Indices of the floating base bodies (mobilized by a joint added at finalize)."""
        self._throw_if_not_finalized("get_floating_base_bodies")
        return {b.index() for b in self._bodies if b._is_floating_base}

    # =====================================================================================
    # frames
    # =====================================================================================
    def add_frame(self, frame: Frame) -> Frame:
        """Add a frame (typically a ``FixedOffsetFrame``) and return it."""
        func = "add_frame"
        self._throw_if_finalized(func, "frames")
        if not isinstance(frame, Frame):
            raise TypeError(f"{func}: frame must be a Frame, got {type(frame).__name__}")
        if frame._tree is not None:
            raise ValueError(f"{func}: frame {frame.name()!r} was already added to a plant")
        self._check_element(frame.body(), self._bodies, func, "body of the frame")
        parent = getattr(frame, "parent_frame", None)
        if parent is not None:
            self._check_element(parent(), self._frames, func, "parent_frame")
        mi = self._check_instance(frame.model_instance(), func)
        self._check_unique("frame", frame.name(), mi, func)
        frame._tree = self
        frame._index = FrameIndex(len(self._frames))
        self._frames.append(frame)
        self._model_instances[mi].frame_indices.append(frame._index)
        self._by_name["frame"][frame.name()].append(frame)
        return frame

    def num_frames(self) -> int:
        """Number of frames (body frames included)."""
        return len(self._frames)

    def get_frame(self, frame_index: int) -> Frame:
        """Frame with index `frame_index` (pydrake's keyword)."""
        return self._get_indexed(self._frames, frame_index, "get_frame", "frames")

    def get_frame_indices(self, model_instance: int) -> list[int]:
        """Indices of the frames of `model_instance`, in order of addition."""
        mi = self._check_instance(model_instance, "get_frame_indices")
        return list(self._model_instances[mi].frame_indices)

    # =====================================================================================
    # joints and actuators
    # =====================================================================================
    def add_joint(self, joint: Joint) -> Joint:
        """Add `joint` (its frames must already belong to this tree) and return it."""
        func = "add_joint"
        self._throw_if_finalized(func, "joints")
        if not isinstance(joint, Joint):
            raise TypeError(f"{func}: joint must be a Joint, got {type(joint).__name__}")
        if joint._tree is not None:
            raise ValueError(f"{func}: joint {joint.name()!r} was already added to a plant")
        for arg, frame in (
            ("frame_on_parent", joint.frame_on_parent()),
            ("frame_on_child", joint.frame_on_child()),
        ):
            if frame._tree is not self:
                raise ValueError(
                    f"{func}: {arg} {frame.name()!r} of joint {joint.name()!r} does not belong "
                    f"to this plant; add it with add_frame() first"
                )
        mi = joint.model_instance()
        self._check_unique("joint", joint.name(), mi, func)
        parent, child = joint.parent_body(), joint.child_body()
        pair = (min(parent.index(), child.index()), max(parent.index(), child.index()))
        other = self._joint_between.get(pair)
        if other is not None:
            raise ValueError(
                f"{func}: joint {other.name()!r} already connects bodies {parent.name()!r} and "
                f"{child.name()!r}; adding joint {joint.name()!r} between them is not allowed"
            )
        self._joint_between[pair] = joint
        return self._register_joint(joint)

    def _register_joint(self, joint: Joint) -> Joint:
        joint._tree = self
        joint._index = JointIndex(len(self._joint_slots))
        self._joint_slots.append(joint)
        self._joints.append(joint)
        self._model_instances[joint.model_instance()].joint_indices.append(joint._index)
        self._by_name["joint"][joint.name()].append(joint)
        return joint

    def weld_frames(
        self, frame_on_parent_F: Frame, frame_on_child_M: Frame, X_FM=None
    ) -> WeldJoint:
        """Weld frame M to frame F at pose X_FM with a joint named ``"<F>_welds_to_<M>"``."""
        self._throw_if_finalized("weld_frames", "joints")
        name = f"{frame_on_parent_F.name()}_welds_to_{frame_on_child_M.name()}"
        return self.add_joint(WeldJoint(name, frame_on_parent_F, frame_on_child_M, X_FM))

    def num_joints(self) -> int:
        """Number of joints (after finalize, including the joints added for free bodies;
        removed joints not counted, so loop over `get_joint_indices()`, not
        ``range(num_joints())``)."""
        return len(self._joints)

    def get_joint(self, joint_index: int) -> Joint:
        """Joint with index `joint_index` (pydrake's keyword) (raises for a removed one)."""
        return self._live_slot(self._joint_slots, joint_index, "get_joint", "joints")

    def get_mutable_joint(self, joint_index: int) -> Joint:
        """The joint with index `joint_index`, for changing its defaults (the same object
        as `get_joint` returns)."""
        return self._live_slot(self._joint_slots, joint_index, "get_mutable_joint", "joints")

    def get_joint_indices(self, model_instance: int | None = None) -> list[int]:
        """Indices of the joints (of `model_instance`, if given), in order of addition."""
        if model_instance is None:
            return [joint.index() for joint in self._joints]
        mi = self._check_instance(model_instance, "get_joint_indices")
        return list(self._model_instances[mi].joint_indices)

    def add_joint_actuator(
        self, name: str, joint: Joint, effort_limit: float = np.inf
    ) -> JointActuator:
        """Add an actuator on the single-dof `joint` and return it."""
        func = "add_joint_actuator"
        self._throw_if_finalized(func, "joint actuators")
        self._check_element(joint, self._joint_slots, func, "joint")
        if joint.num_velocities() != 1:
            raise ValueError(
                f"{func}: joint {joint.name()!r} has {joint.num_velocities()} degrees of freedom, "
                f"but only single degree-of-freedom joints can be actuated (add one actuated "
                f"single-dof joint per actuated direction instead)"
            )
        actuator = JointActuator(name, joint, effort_limit)
        mi = actuator.model_instance()
        self._check_unique("actuator", name, mi, func)
        actuator._tree = self
        actuator._index = JointActuatorIndex(len(self._actuator_slots))
        self._actuator_slots.append(actuator)
        self._actuators.append(actuator)
        self._model_instances[mi].actuator_indices.append(actuator._index)
        self._by_name["actuator"][name].append(actuator)
        return actuator

    def num_actuators(self, model_instance: int | None = None) -> int:
        """Number of actuators (of `model_instance`, if given)."""
        if model_instance is None:
            return len(self._actuators)
        mi = self._check_instance(model_instance, "num_actuators")
        return len(self._model_instances[mi].actuator_indices)

    num_actuated_dofs = num_actuators

    def get_joint_actuator(self, actuator_index: int) -> JointActuator:
        """Actuator with index `actuator_index` (pydrake's keyword) (raises for a removed one)."""
        return self._live_slot(self._actuator_slots, actuator_index, "get_joint_actuator", "actuators")

    def get_joint_actuator_indices(self, model_instance: int | None = None) -> list[int]:
        """Indices of the actuators (of `model_instance`, if given)."""
        if model_instance is None:
            return [actuator.index() for actuator in self._actuators]
        mi = self._check_instance(model_instance, "get_joint_actuator_indices")
        return list(self._model_instances[mi].actuator_indices)

    # =====================================================================================
    # force elements and constraints
    # =====================================================================================
    def add_force_element(self, force_element: ForceElement = None, *,
                          element: ForceElement = None) -> ForceElement:
        """Add a force element and return it (pydrake's keyword ``force_element=``;
        ``element=`` is the same argument)."""
        func = "add_force_element"
        if (force_element is None) == (element is None):
            raise TypeError(f"{func}: give the force element once, as force_element= (or "
                            f"element=)")
        element = force_element if element is None else element
        self._throw_if_finalized(func, "force elements")
        if not isinstance(element, ForceElement):
            raise TypeError(f"{func}: element must be a ForceElement, got {type(element).__name__}")
        if element._tree is not None:
            raise ValueError(f"{func}: this {type(element).__name__} was already added to a plant")
        if isinstance(element, UniformGravityFieldElement) and self._force_elements:
            raise DuplicateElementError(
                f"{func}: the plant already has a gravity field (force element 0); use "
                f"gravity_field().set_gravity_vector(g) to change it"
            )
        for attr in ("bodyA", "bodyB", "link0", "link1"):
            if hasattr(element, attr):
                self._check_element(getattr(element, attr)(), self._bodies, func, attr)
        for attr in ("frameA", "frameC"):
            if hasattr(element, attr):
                self._check_element(getattr(element, attr)(), self._frames, func, attr)
        if hasattr(element, "joint"):
            self._check_element(element.joint(), self._joint_slots, func, "joint")
        element._tree = self
        element._index = ForceElementIndex(len(self._force_elements))
        self._force_elements.append(element)
        return element

    def gravity_field(self) -> UniformGravityFieldElement:
        """The uniform gravity field (force element 0)."""
        return self._gravity

    def num_force_elements(self) -> int:
        """Number of force elements (the gravity field included)."""
        return len(self._force_elements)

    def get_force_element(self, force_element_index: int) -> ForceElement:
        """Force element with index `force_element_index` (pydrake's keyword)."""
        return self._get_indexed(self._force_elements, force_element_index, "get_force_element", "force elements")

    # =====================================================================================
    # base body joint type
    # =====================================================================================
    def set_base_body_joint_type(self, joint_type, model_instance: int | None = None) -> None:
        """Choose how free bodies are mobilized at finalize, globally or for one model
        instance: a `BaseBodyJointType` or its string (``"quaternion_floating"``,
        ``"rpy_floating"`` or ``"weld"``)."""
        func = "set_base_body_joint_type"
        self._throw_if_finalized(func, "base body joint type choices")
        joint_type = BaseBodyJointType.coerce(func, "joint_type", joint_type)
        if model_instance is None:
            self._base_body_joint_type = joint_type
        else:
            self._model_instances[
                self._check_instance(model_instance, func)
            ].base_body_joint_type = joint_type

    def get_base_body_joint_type(self, model_instance: int | None = None) -> BaseBodyJointType:
        """The `BaseBodyJointType` in force for `model_instance` (or the global one)."""
        if model_instance is not None:
            chosen = self._model_instances[
                self._check_instance(model_instance, "get_base_body_joint_type")
            ].base_body_joint_type
            if chosen is not None:
                return chosen
        return self._base_body_joint_type

    # =====================================================================================
    # finalize
    # =====================================================================================
    def _with_source_locations(self, message: str) -> str:
        """`message` followed by the file:line of every body or joint it quotes by name."""
        import re

        named = {}
        for element in list(self._bodies) + list(self._joints):
            location = element.source_location()
            if location:
                named.setdefault(element.name(), location)
        found = []
        for name in re.findall(r"'([^']+)'", message):
            if name in named and f"'{name}' at {named[name]}" not in found:
                found.append(f"'{name}' at {named[name]}")
        return message + (f" ({'; '.join(found)})" if found else "")

    def finalize(self):
        """Compile the tree: add joints for free bodies, order nodes, assign coordinates.

        Free bodies (no inboard joint) get a joint to the world named ``$world_<body>``
        of the base body joint type of their model instance (quaternion floating by
        default). Nodes are numbered depth-first pre-order from the world, children in
        joint-creation order, and q/v are assigned in node order.

        Returns
        -------
        CompiledModel
            The immutable flat model (see ``docs/compiled_model.md``).

        Raises
        ------
        TreeLifecycleError
            If called twice.
        TopologyError
            For kinematic loops and reversed joints. Massless bodies are accepted (as in
            Drake); a singular mass matrix is reported by the dynamics
            (`SingularDynamicsError`).
        """
        if self._finalized:
            raise TreeLifecycleError(
                "finalize() was already called; a plant can be finalized only once"
            )
        body_names = [b.name() for b in self._bodies]
        pairs = [(j.parent_body().index(), j.child_body().index()) for j in self._joints]
        try:
            bases = choose_base_bodies(
                len(self._bodies), pairs, body_names, [j.name() for j in self._joints]
            )
            ephemeral = [self._make_base_joint(self._bodies[b]) for b in bases]
            pairs += [(0, b) for b in bases]
            topology = order_nodes(len(self._bodies), pairs, body_names)
        except TopologyError as err:
            raise TopologyError(self._with_source_locations(str(err))) from err

        self._compiled, self._tables = compile_model(
            topology,
            self._joints + ephemeral,
            self._bodies,
            self._actuators,
            len(self._model_instances),
        )
        for joint in ephemeral:
            self._register_joint(joint)
        self._joint_of_node = [None] + [self._joints[j] for j in topology.joint_of_node[1:]]
        self._finalized = True
        for element in self._force_elements:
            element._do_finalize(self)
        return self._compiled

    def _make_base_joint(self, body: RigidBody) -> Joint:
        """Create (not register) the joint that mobilizes free `body` from the world."""
        mi = body.model_instance()
        joint_type = self.get_base_body_joint_type(mi)
        name = f"$world_{body.name()}"
        while self._has_named("joint", name, mi, "finalize"):
            name = "_" + name
        X_WB = self._default_free_body_poses.get(body.index())
        if joint_type == "weld":
            joint = WeldJoint(name, self.world_frame(), body.body_frame(), X_WB)
        else:
            joint = _BASE_JOINT_CLASSES[joint_type](name, self.world_frame(), body.body_frame())
            if X_WB is not None:
                joint.set_default_pose(RigidTransform(X_WB))
        joint._is_ephemeral = True
        prefix = body.name()
        while self._has_named("joint", prefix, mi, "finalize"):
            prefix = "_" + prefix
        joint._coordinate_prefix = prefix
        return joint

    def compiled_model(self):
        """The `CompiledModel` produced by `finalize`."""
        self._throw_if_not_finalized("compiled_model")
        return self._compiled

    def index_tables(self):
        """Per-instance q/v/actuator index tables and the actuation matrix (`TreeIndexTables`)."""
        self._throw_if_not_finalized("index_tables")
        return self._tables

    # =====================================================================================
    # force elements: aggregate contributions
    # =====================================================================================
    def _elements(self, include_gravity):
        return [e for e in self._force_elements if include_gravity or e is not self._gravity]

    def calc_force_elements_contribution(
        self,
        X_WB,
        V_WB_W,
        q,
        v,
        tau_out,
        F_Bo_W_out,
        include_gravity: bool = True,
        inertia_params=None,
        element_parameters=None,
    ) -> None:
        """Add every force element's forces into `tau_out` (nv,) and `F_Bo_W_out` (nb, 6).

        Kinematics are in node order (see `multibody.tree.force_elements.force_element`).
        `inertia_params` (nb, 10) is used for gravity (compiled defaults when None);
        `element_parameters` maps a force element's index to the parameters a Context holds
        for it (the element's defaults when absent).
        """
        self._throw_if_not_finalized("calc_force_elements_contribution")
        for element in self._elements(include_gravity):
            if element is self._gravity:
                element.calc_and_add_forces(
                    X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out, inertia_params=inertia_params
                )
            elif element_parameters and element._index in element_parameters:
                element.calc_and_add_forces(X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out,
                                            parameters=element_parameters[element._index])
            else:
                element.calc_and_add_forces(X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out)

    def _sum_over_elements(self, method, X_WB, V_WB_W, q, v, include_gravity, inertia_params,
                           element_parameters=None):
        self._throw_if_not_finalized(method)
        total = 0.0
        for element in self._elements(include_gravity):
            if element is self._gravity:
                total += getattr(element, method)(X_WB, V_WB_W, q, v, inertia_params=inertia_params)
            elif element_parameters and element._index in element_parameters:
                total += getattr(element, method)(X_WB, V_WB_W, q, v,
                                                  parameters=element_parameters[element._index])
            else:
                total += getattr(element, method)(X_WB, V_WB_W, q, v)
        return float(total)

    def calc_potential_energy(
        self, X_WB, V_WB_W, q, v, include_gravity: bool = True, inertia_params=None,
        element_parameters=None,
    ) -> float:
        """Sum of the force elements' potential energies (J); `element_parameters` as
        for `calc_force_elements_contribution`."""
        return self._sum_over_elements(
            "calc_potential_energy", X_WB, V_WB_W, q, v, include_gravity, inertia_params,
            element_parameters,
        )

    def calc_conservative_power(
        self, X_WB, V_WB_W, q, v, include_gravity: bool = True, inertia_params=None,
        element_parameters=None,
    ) -> float:
        """Sum of the force elements' conservative powers (W); `element_parameters` as
        for `calc_force_elements_contribution`."""
        return self._sum_over_elements(
            "calc_conservative_power", X_WB, V_WB_W, q, v, include_gravity, inertia_params,
            element_parameters,
        )

    def calc_non_conservative_power(
        self, X_WB, V_WB_W, q, v, include_gravity: bool = True, inertia_params=None,
        element_parameters=None,
    ) -> float:
        """Sum of the force elements' non-conservative powers (W), joint damping excluded; `element_parameters` as
        for `calc_force_elements_contribution`."""
        return self._sum_over_elements(
            "calc_non_conservative_power", X_WB, V_WB_W, q, v, include_gravity, inertia_params,
            element_parameters,
        )
