"""Selector matrices and topology queries of MultibodyPlant (Drake's
MakeStateSelectorMatrix, MakeActuatorSelectorMatrix, GetBodiesKinematicallyAffectedBy);
a mixin of MultibodyPlant.
"""

import numpy as np

__all__ = ["PlantFloatingBaseMixin", "PlantSelectorsMixin"]


class PlantSelectorsMixin:
    """Selections of joints and actuators (see the module docstring)."""

    def _unique_elements(self, fn, arg, indices, getter, what):
        self._tree._throw_if_not_finalized(fn)
        elements = []
        for index in indices:
            try:
                element = getter(int(index))
            except (TypeError, ValueError, LookupError) as err:
                raise RuntimeError(f"{fn}: {arg} holds {index!r}, which is not the index of "
                                   f"a {what} of this plant ({err})") from None
            if element in elements:
                raise RuntimeError(f"{fn}: {what} {element.name()!r} is repeated in {arg}")
            elements.append(element)
        return elements

    def get_bodies_kinematically_affected_by(self, joint_indexes):
        """Body indices (sorted list of int) whose pose depends on the coordinates of the
        joints `joint_indexes`: every body outboard of a joint that has coordinates
        (a weld moves nothing). A topological query; constraints are not considered.

        Raises
        ------
        RuntimeError
            Before finalize, or for an index that is not a joint of this plant.
        """
        fn = "get_bodies_kinematically_affected_by"
        joints = self._unique_elements(fn, "joint_indexes", joint_indexes, self.get_joint,
                                       "joint")
        parent = self._model.parent
        moved = np.zeros(self._model.nb, dtype=bool)
        for joint in joints:
            if joint.num_velocities() > 0:
                moved[self._tables.node_of_body[joint.child_body().index()]] = True
        for k in range(1, self._model.nb):     # parents come before children
            moved[k] |= moved[parent[k]]
        return sorted(int(self._model.body_index[k]) for k in np.flatnonzero(moved))

    def make_state_selector_matrix(self, user_to_joint_index_map):
        """Sx (nₛ, nq + nv) with xₛ = Sx x, xₛ = [qₛ; vₛ]: the positions of the joints in
        `user_to_joint_index_map` (in that order), then their velocities.

        Raises
        ------
        RuntimeError
            For a repeated joint or an index that is not a joint of this plant.
        """
        fn = "make_state_selector_matrix"
        joints = self._unique_elements(fn, "user_to_joint_index_map", user_to_joint_index_map,
                                       self.get_joint, "joint")
        nq = self.num_positions()
        rows = [joint.position_start() + i for joint in joints
                for i in range(joint.num_positions())]
        rows += [nq + joint.velocity_start() + i for joint in joints
                 for i in range(joint.num_velocities())]
        S = np.zeros((len(rows), nq + self.num_velocities()))
        S[np.arange(len(rows)), rows] = 1.0
        return S

    def make_actuator_selector_matrix(self, user_to_actuator_index_map=None, *,
                                      user_to_joint_index_map=None):
        """Su (nu, nₛ) with u = Su uₛ, for the actuators in `user_to_actuator_index_map`
        (in that order), or for the actuators of the joints in `user_to_joint_index_map`
        (Drake's two overloads; indices are plain ints here, so the joint form is the
        keyword).

        Raises
        ------
        RuntimeError
            For a repeated element, an unknown index or a joint without an actuator.
        """
        fn = "make_actuator_selector_matrix"
        self._tree._throw_if_not_finalized(fn)
        if (user_to_actuator_index_map is None) == (user_to_joint_index_map is None):
            raise TypeError(f"{fn}: pass user_to_actuator_index_map or user_to_joint_index_map")
        if user_to_joint_index_map is not None:
            joints = self._unique_elements(fn, "user_to_joint_index_map",
                                           user_to_joint_index_map, self.get_joint, "joint")
            by_joint = {self.get_joint_actuator(a).joint().index(): self.get_joint_actuator(a)
                        for a in self.get_joint_actuator_indices()}
            actuators = []
            for joint in joints:
                if joint.index() not in by_joint:
                    raise RuntimeError(f"{fn}: joint {joint.name()!r} does not have an actuator")
                actuators.append(by_joint[joint.index()])
        else:
            actuators = self._unique_elements(fn, "user_to_actuator_index_map",
                                              user_to_actuator_index_map,
                                              self.get_joint_actuator, "actuator")
        cols = [(a.input_start() + i) for a in actuators for i in range(a.num_inputs())]
        S = np.zeros((self.num_actuated_dofs(), len(cols)))
        S[cols, np.arange(len(cols))] = 1.0
        return S

    #: The spelling of issue 18 for `make_actuator_selector_matrix`.
    make_actuator_selection_matrix = make_actuator_selector_matrix

    # ---- element existence and mutable access (Drake's has_joint, ...) -------------------
    def get_mutable_joint_actuator(self, actuator_index):
        """The JointActuator with index `actuator_index`, for changing its defaults (its
        gear ratio, rotor inertia, effort limit) before finalize; the same object as
        `get_joint_actuator` returns."""
        return self.get_joint_actuator(actuator_index)

    def get_mutable_joint_by_name(self, name, model_instance=None):
        """The joint named `name` (of `model_instance`, if given), for changing its
        defaults before finalize; the same object as `get_joint_by_name` returns."""
        return self.get_joint_by_name(name, model_instance)

class PlantFloatingBaseMixin:
    """Drake's floating-base-body queries by model instance and its current names for the
    default pose of a floating base body (``SetDefaultFloatingBaseBodyPose``)."""

    def _floating_bodies_of(self, model_instance, fn):
        self._tree._throw_if_not_finalized(fn)
        return sorted(b for b in self.get_floating_base_bodies()
                      if self.get_body(b).model_instance() == model_instance)

    def has_unique_floating_base_body(self, model_instance):
        """True if `model_instance` has exactly one floating base body (after finalize)."""
        return len(self._floating_bodies_of(model_instance,
                                            "has_unique_floating_base_body")) == 1

    def get_unique_floating_base_body_or_throw(self, model_instance):
        """The one floating base body of `model_instance` (RigidBody).

        Raises
        ------
        RuntimeError
            Before finalize, or if the instance has no or several floating base bodies.
        """
        fn = "get_unique_floating_base_body_or_throw"
        bodies = self._floating_bodies_of(model_instance, fn)
        if len(bodies) != 1:
            raise RuntimeError(
                f"{fn}: model instance {self.get_model_instance_name(model_instance)!r} has "
                f"{len(bodies)} floating base bodies {[self.get_body(b).name() for b in bodies]}"
                f", expected exactly one")
        return self.get_body(bodies[0])

    #: Drake's earlier names of the two queries above (pydrake HasUniqueFreeBaseBody,
    #: GetUniqueFreeBaseBodyOrThrow), as `set_default_free_body_pose` is of the next.
    has_unique_free_base_body = has_unique_floating_base_body
    get_unique_free_base_body_or_throw = get_unique_floating_base_body_or_throw

    def set_default_floating_base_body_pose(self, body, X_WB):
        """Set the default pose X_WB of a (future) floating base `body` (Drake's current
        name of `set_default_free_body_pose`)."""
        self.set_default_free_body_pose(body, X_WB)

    def get_default_floating_base_body_pose(self, body):
        """The default pose X_WB of a (future) floating base `body` (RigidTransform)."""
        return self.get_default_free_body_pose(body)
