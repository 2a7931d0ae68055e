"""Construction and introspection methods of MultibodyPlant, forwarded to its tree.

The plant is a facade over a `multibody.tree.MultibodyTree` (``plant._tree``): adding
elements, lookups by name or index, coordinate names, limits, the actuation matrix and
default positions are the tree's methods, with the same names, arguments, lifecycle
checks and error messages.
"""

import functools

from merganser.multibody.tree import ConstraintArgumentError, MultibodyTree

__all__ = ["PlantConstructionMixin"]

_FORWARDED = (
    # construction
    "add_model_instance", "rename_model_instance", "add_rigid_body", "add_joint", "add_joint_actuator", "add_frame",
    "weld_frames", "add_force_element", "add_coupler_constraint", "add_distance_constraint",
    "add_ball_constraint", "add_weld_constraint", "set_base_body_joint_type",
    "get_base_body_joint_type", "set_default_free_body_pose", "get_default_free_body_pose",
    # lifecycle and special elements
    "is_finalized", "world_body", "world_frame", "world_model_instance",
    "default_model_instance", "gravity_field",
    # sizes
    "num_positions", "num_velocities", "num_multibody_states", "num_actuators",
    "num_actuated_dofs", "num_bodies", "num_joints", "num_frames", "num_model_instances",
    "num_force_elements", "num_constraints", "remove_constraint",
    "get_default_distance_constraint_params", "remove_joint", "remove_joint_actuator",
    "has_joint", "has_joint_actuator",
    # lookups
    "get_body_by_name", "get_rigid_body_by_name", "num_bodies_with_name", "get_mutable_joint",
    "is_anchored", "get_actuated_joint_indices", "get_topology_graphviz_string",
    "get_joint_by_name", "get_frame_by_name",
    "get_joint_actuator_by_name", "get_model_instance_by_name", "get_model_instance_name",
    "has_body_named", "has_joint_named", "has_frame_named", "has_joint_actuator_named",
    "has_model_instance_named", "get_body_indices", "get_joint_indices",
    "get_joint_actuator_indices", "get_frame_indices", "get_body", "get_joint",
    "get_joint_actuator", "get_frame", "get_force_element", "get_constraint_specs",
    "get_constraint_ids", "num_tendon_constraints", "get_tendon_constraint_specs",
    "get_floating_base_bodies", "get_bodies_welded_to",
    # coordinates
    "get_position_names", "get_velocity_names", "get_state_names", "get_actuator_names",
    "get_position_indices", "get_velocity_indices", "get_actuator_input_indices",
    "make_actuation_matrix", "make_actuation_matrix_pseudoinverse",
    "remove_all_joint_actuator_effort_limits", "get_position_lower_limits", "get_position_upper_limits",
    "get_velocity_lower_limits", "get_velocity_upper_limits",
    "get_acceleration_lower_limits", "get_acceleration_upper_limits",
    "get_effort_lower_limits", "get_effort_upper_limits", "get_default_positions",
    "set_default_positions", "get_positions_from_array", "set_positions_in_array",
    "get_velocities_from_array", "set_velocities_in_array", "get_actuation_from_array",
    "set_actuation_in_array",
)


def _forward(name):
    """A plant method that calls the tree's method `name` (same signature and docs)."""
    tree_method = getattr(MultibodyTree, name)

    @functools.wraps(tree_method)
    def method(self, *args, **kwargs):
        return getattr(self._tree, name)(*args, **kwargs)

    return method


class PlantConstructionMixin:
    """Methods forwarded to ``self._tree`` (see the module docstring)."""

    @functools.wraps(MultibodyTree.add_tendon_constraint)
    def add_tendon_constraint(self, joints, a, offset=None, lower_limit=None,
                              upper_limit=None, stiffness=None, damping=None):
        self._tree._throw_if_finalized("add_tendon_constraint", "constraints")
        approximation = str(self._discrete_contact_approximation.value)
        if self.time_step() > 0 and approximation in ("tamsi", "lcp"):
            raise ConstraintArgumentError(
                f"add_tendon_constraint: plant '{self.get_name()}' uses the discrete contact "
                f"approximation '{approximation}', which does not support tendon constraints; "
                f"expected 'sap', 'similar' or 'lagged' (the SAP solver): call "
                f"set_discrete_contact_approximation() first")
        return self._tree.add_tendon_constraint(joints, a, offset, lower_limit, upper_limit,
                                                stiffness, damping)

    def set_gravity_enabled(self, model_instance, is_enabled):
        """Enable or disable gravity on the bodies of `model_instance` (before finalize)."""
        self._tree.gravity_field().set_enabled(model_instance, is_enabled)

    def is_gravity_enabled(self, model_instance):
        """True unless gravity was disabled for `model_instance`."""
        return self._tree.gravity_field().is_enabled(model_instance)


for _name in _FORWARDED:
    setattr(PlantConstructionMixin, _name, _forward(_name))
del _name
