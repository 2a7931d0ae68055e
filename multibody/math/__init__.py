"""multibody.math: spatial algebra (Featherstone / Drake conventions).

Spatial vectors are [rotational; translational] 6-vectors expressed in one frame:
SpatialVelocity [w; v], SpatialAcceleration [alpha; a], SpatialForce [tau; f] and
SpatialMomentum [h; l]. A rotation ``R_AE @ V_E`` re-expresses them in A; ``shift`` moves
them to another point. Mass properties are RotationalInertia (kg m²), UnitInertia (per
unit mass, m²) and SpatialInertia (mass, center of mass, unit inertia about a point).
"""

from .rotational_inertia import RotationalInertia
from .spatial_acceleration import SpatialAcceleration
from .spatial_force import SpatialForce
from .spatial_inertia import SpatialInertia
from .spatial_momentum import SpatialMomentum
from .spatial_vector import SpatialVector
from .spatial_velocity import SpatialVelocity
from .unit_inertia import UnitInertia
from .validity import InertiaValidityWarning, check_spatial_inertia, find_inertia_violations

__all__ = [
    "InertiaValidityWarning",
    "RotationalInertia",
    "SpatialAcceleration",
    "SpatialForce",
    "SpatialInertia",
    "SpatialMomentum",
    "SpatialVector",
    "SpatialVelocity",
    "UnitInertia",
    "check_spatial_inertia",
    "find_inertia_violations",
]
