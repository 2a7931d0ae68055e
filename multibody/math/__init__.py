"""multibody.math: spatial algebra (Featherstone / Drake conventions).

Spatial vectors are [rotational; translational] 6-vectors expressed in one frame:
SpatialVelocity [w; v], SpatialAcceleration [alpha; a], SpatialForce [tau; f] and
SpatialMomentum [h; l]. A rotation ``R_AE @ V_E`` re-expresses them in A; ``shift`` moves
them to another point. Mass properties are RotationalInertia (kg m²), UnitInertia (per
unit mass, m²) and SpatialInertia (mass, center of mass, unit inertia about a point).
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".rotational_inertia": ("RotationalInertia",),
    ".spatial_acceleration": ("SpatialAcceleration",),
    ".spatial_force": ("SpatialForce",),
    ".spatial_inertia": ("SpatialInertia",),
    ".spatial_momentum": ("SpatialMomentum",),
    ".spatial_vector": ("SpatialVector",),
    ".spatial_velocity": ("SpatialVelocity",),
    ".unit_inertia": ("UnitInertia",),
    ".validity": ("InertiaValidityWarning", "check_spatial_inertia", "find_inertia_violations"),
})
