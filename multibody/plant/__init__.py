"""multibody.plant: MultibodyPlant, the LeafSystem over the multibody tree and its
compiled dynamics, with its force, contact-result and configuration types."""

from merganser.multibody.plant.config import (
    MultibodyPlantConfig,
    add_multibody_plant,
    add_multibody_plant_scene_graph,
    apply_multibody_plant_config,
)
from merganser.multibody.plant.contact_results import (
    ContactResults,
    HydroelasticContactInfo,
    PointPairContactInfo,
)
from merganser.multibody.plant.enums import (
    BaseBodyJointType,
    ContactModel,
    DiscreteContactApproximation,
)
from merganser.multibody.kernels.singular_dynamics import SingularDynamicsError
from merganser.multibody.plant.externally_applied_spatial_force import ExternallyAppliedSpatialForce
from merganser.multibody.plant.jacobian_wrt_variable import JacobianWrtVariable
from merganser.multibody.plant.multibody_forces import MultibodyForces
from merganser.multibody.plant.multibody_plant import MultibodyPlant
from merganser.multibody.plant import compiled_form  # noqa: F401,E402  (registers its form)

__all__ = [
    "BaseBodyJointType",
    "ContactModel",
    "ContactResults",
    "DiscreteContactApproximation",
    "ExternallyAppliedSpatialForce",
    "HydroelasticContactInfo",
    "JacobianWrtVariable",
    "MultibodyForces",
    "MultibodyPlant",
    "MultibodyPlantConfig",
    "PointPairContactInfo",
    "SingularDynamicsError",
    "add_multibody_plant",
    "add_multibody_plant_scene_graph",
    "apply_multibody_plant_config",
]
