"""Hydroelastic contact geometry: tetrahedral pressure-field meshes of compliant
geometries, surface meshes of rigid ones, and compliant-rigid contact surfaces."""

from .contact_surface import ContactSurface, HydroelasticContactRepresentation
from .contact_surfaces import HydroelasticQueryResult, compute_hydroelastic
from .meshes import (
    SurfaceMesh, VolumeMesh, make_box_surface_mesh, make_box_volume_mesh,
    make_capsule_surface_mesh, make_capsule_volume_mesh, make_convex_surface_mesh,
    make_convex_volume_mesh, make_cylinder_surface_mesh, make_cylinder_volume_mesh, make_ellipsoid_surface_mesh,
    make_ellipsoid_volume_mesh, make_sphere_surface_mesh, make_sphere_volume_mesh,
)
from .representations import HydroelasticRepresentation, make_representation

__all__ = ["ContactSurface", "HydroelasticContactRepresentation", "HydroelasticQueryResult",
           "compute_hydroelastic", "SurfaceMesh",
           "VolumeMesh", "make_box_surface_mesh", "make_box_volume_mesh",
           "make_sphere_surface_mesh", "make_sphere_volume_mesh", "make_cylinder_surface_mesh",
           "make_cylinder_volume_mesh", "make_ellipsoid_surface_mesh",
           "make_ellipsoid_volume_mesh", "make_capsule_surface_mesh",
           "make_capsule_volume_mesh", "make_convex_surface_mesh", "make_convex_volume_mesh",
           "HydroelasticRepresentation", "make_representation"]
