"""multibody.hydrodynamics: buoyancy, drag and added mass of bodies in a fluid.

`HydrodynamicForce` is a force element (buoyancy at the center of buoyancy, linear and
quadratic drag in the body frame); the added mass enters the mass matrix and the forward
dynamics through the functions of `multibody.hydrodynamics.added_mass`.
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".added_mass": (
        "calc_added_mass_bias", "calc_added_mass_matrix", "calc_forward_dynamics_with_added_mass",
        "calc_mass_matrix_with_added_mass", "hydrodynamic_force_elements",
    ),
    ".body_hydro_data": ("BodyHydroData",),
    ".hydrodynamic_force": ("HydrodynamicForce",),
})
