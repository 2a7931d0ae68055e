"""multibody.tree: the user-facing multibody elements and their compilation.

Bodies, frames, joints, actuators, force elements and constraint specs are registered in
a `MultibodyTree`, whose ``finalize()`` compiles them into the flat `CompiledModel`
read by the kernels (``docs/compiled_model.md``).
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".compiled_model": ("CompiledModel", "JOINT_NQ", "JOINT_NV", "JointType"),
    ".constraints": (
        "BallConstraintSpec", "CouplerConstraintSpec", "DistanceConstraintParams",
        "DistanceConstraintSpec", "TendonConstraintSpec", "WeldConstraintSpec",
    ),
    ".element": ("MultibodyElement", "StateAccessor"),
    ".errors": (
        "ConstraintArgumentError", "DuplicateElementError", "ElementLookupError", "TopologyError", "TreeLifecycleError",
    ),
    ".force_elements": (
        "DoorHinge", "DoorHingeConfig", "ForceElement", "LinearBushingRollPitchYaw",
        "LinearSpringDamper", "PrismaticSpring",
        "RevoluteSpring", "UniformGravityFieldElement",
    ),
    ".force_density_field": ("ForceDensityField", "ForceDensityType", "GravityForceField"),
    ".frames": ("BodyFrame", "FixedOffsetFrame", "Frame", "RigidBodyFrame"),
    ".geometry_spatial_inertia": ("calc_spatial_inertia",),
    ".indices": "*",
    ".joint_actuator": ("JointActuator",),
    ".joints": (
        "BallQuaternionJoint", "BallRpyJoint", "Joint", "PlanarJoint", "PrismaticJoint",
        "QuaternionFloatingJoint", "RevoluteJoint", "RpyFloatingJoint", "ScrewJoint",
        "UniversalJoint", "WeldJoint",
    ),
    ".model_instance": ("DEFAULT_MODEL_INSTANCE", "WORLD_MODEL_INSTANCE"),
    ".multibody_tree": ("MultibodyTree",),
    ".pd_controller_gains": ("PdControllerGains",),
    ".rigid_body": ("RigidBody", "Body"),
    ".scoped_name": ("ScopedName",),
})
