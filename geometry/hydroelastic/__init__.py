"""Hydroelastic contact geometry: tetrahedral pressure-field meshes of compliant
geometries, surface meshes of rigid ones, and compliant-rigid contact surfaces."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".contact_surface": ("ContactSurface", "HydroelasticContactRepresentation"),
    ".contact_surfaces": ("HydroelasticQueryResult", "compute_hydroelastic"),
    ".meshes": (
        "SurfaceMesh", "TessellationStrategy", "VolumeMesh", "as_tessellation_strategy",
        "make_box_surface_mesh", "make_box_volume_mesh",
        "make_capsule_surface_mesh", "make_capsule_volume_mesh", "make_convex_surface_mesh",
        "make_convex_volume_mesh", "make_cylinder_surface_mesh", "make_cylinder_volume_mesh",
        "make_ellipsoid_surface_mesh", "make_ellipsoid_volume_mesh", "make_sphere_surface_mesh",
        "make_sphere_volume_mesh", "sphere_refinement_level",
    ),
    ".representations": ("HydroelasticRepresentation", "make_representation"),
})
