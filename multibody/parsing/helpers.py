"""Lookups between joints, bodies and coordinates of a plant (e.g. for a loaded model).

The name maps work before ``finalize()``; the coordinate indices need it. Joints added by
``finalize()`` for free bodies (``$world_<body>``) are left out unless
`include_ephemeral` is True.
"""

from __future__ import annotations

__all__ = [
    "get_joint_child_body_names",
    "get_joint_parent_body_names",
    "get_joint_position_starts",
    "get_joint_velocity_starts",
]


def _joints(plant, model_instance, include_ephemeral):
    for j in plant.get_joint_indices(model_instance):
        joint = plant.get_joint(j)
        if include_ephemeral or not joint.is_ephemeral():
            yield joint


def get_joint_child_body_names(plant, model_instance=None, include_ephemeral=False
                               ) -> dict[str, str]:
    """{joint name: name of its child body} (of `model_instance`, or all joints)."""
    return {j.name(): j.child_body().name()
            for j in _joints(plant, model_instance, include_ephemeral)}


def get_joint_parent_body_names(plant, model_instance=None, include_ephemeral=False
                                ) -> dict[str, str]:
    """{joint name: name of its parent body} (``"world"`` for joints to the world)."""
    return {j.name(): j.parent_body().name()
            for j in _joints(plant, model_instance, include_ephemeral)}


def get_joint_position_starts(plant, model_instance=None, include_ephemeral=False
                              ) -> dict[str, int]:
    """{joint name: index of its first position in the plant's q} (joints with nq > 0;
    requires ``finalize()``). A joint's positions are q[start : start + nq]."""
    return {j.name(): j.position_start()
            for j in _joints(plant, model_instance, include_ephemeral) if j.num_positions()}


def get_joint_velocity_starts(plant, model_instance=None, include_ephemeral=False
                              ) -> dict[str, int]:
    """{joint name: index of its first velocity in the plant's v} (joints with nv > 0;
    requires ``finalize()``)."""
    return {j.name(): j.velocity_start()
            for j in _joints(plant, model_instance, include_ephemeral) if j.num_velocities()}
