"""multibody.plant: MultibodyPlant, the LeafSystem over the multibody tree and its
compiled dynamics, with its force, contact-result and configuration types."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".config": (
        "MultibodyPlantConfig", "add_multibody_plant", "add_multibody_plant_scene_graph",
        "apply_multibody_plant_config",
    ),
    ".contact_results": ("ContactResults", "HydroelasticContactInfo", "PointPairContactInfo"),
    ".enums": (
        "BaseBodyJointType", "ContactModel", "DiscreteContactApproximation",
        "DiscreteContactSolver",
    ),
    "merganser.multibody.kernels.singular_dynamics": ("SingularDynamicsError",),
    ".externally_applied_spatial_force": ("ExternallyAppliedSpatialForce",),
    ".externally_applied_spatial_force_multiplexer": ("ExternallyAppliedSpatialForceMultiplexer",),
    ".jacobian_wrt_variable": ("JacobianWrtVariable",),
    ".multibody_forces": ("MultibodyForces",),
    ".multibody_plant": ("MultibodyPlant",),
    ".propeller": ("Propeller", "PropellerInfo"),
    ".wing": ("Wing",),
})
