"""Hydroelastic representations of geometries, built from shape and proximity properties.

A geometry with ``("hydroelastic", "compliance_type")`` gets:

- compliant Sphere / Ellipsoid / Cylinder / Capsule: a `VolumeMesh` (resolution_hint,
  hydroelastic_modulus required; a Sphere's and an Ellipsoid's mesh follows the optional
  ``("hydroelastic", "tessellation_strategy")``, a `TessellationStrategy` or its name,
  kSingleInteriorVertex by default, as in Drake); compliant Box: its volume mesh
  (hydroelastic_modulus required; no resolution hint, as in Drake, which does not refine
  a box);
- compliant HalfSpace: a slab (slab_thickness, hydroelastic_modulus required);
- rigid HalfSpace: its plane; rigid Box / Sphere / Ellipsoid / Cylinder / Capsule: a
  `SurfaceMesh` (resolution_hint optional);
- Convex and Mesh (both through the convex hull of the file's vertices): compliant, the
  centroid-fan `VolumeMesh`; rigid, the hull's `SurfaceMesh` (a non-convex rigid Mesh is
  therefore approximated by its hull);
- a Mesh of a ``.vtk`` tetrahedral mesh (Drake's compliant meshes): that mesh itself,
  compliant with Drake's pressure field (`make_tetrahedral_volume_mesh`: 0 on the
  boundary, E d / d_max inside), rigid its boundary surface.
"""

from dataclasses import dataclass

import numpy as np

from ..properties import HYDROELASTIC
from ..shapes import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, Sphere
from .bvh import build_bvh, pressure_bounds
from .meshes import (
    make_box_surface_mesh, make_capsule_surface_mesh, make_capsule_volume_mesh,
    make_convex_surface_mesh, make_convex_volume_mesh, make_box_volume_mesh, make_cylinder_surface_mesh,
    make_cylinder_volume_mesh, make_ellipsoid_surface_mesh, make_ellipsoid_volume_mesh,
    make_sphere_surface_mesh, make_sphere_volume_mesh, make_tetrahedral_surface_mesh,
    make_tetrahedral_volume_mesh, TessellationStrategy, as_tessellation_strategy,
)
from ..proximity.vtk_volume_mesh import load_vtk_tetrahedra
from .slicing_kernels import tet_tables

__all__ = ["HydroelasticRepresentation", "make_representation"]


@dataclass(frozen=True, eq=False)
class HydroelasticRepresentation:
    """A geometry's hydroelastic data (expressed in its frame G).

    Attributes
    ----------
    compliant : bool
    kind : str
        ``"volume"``, ``"slab"`` (compliant), ``"plane"``, ``"surface"`` (rigid).
    mesh : VolumeMesh or SurfaceMesh or None
    modulus : float
        E (Pa); inf for rigid.
    thickness : float
        Slab thickness (m), slabs only.
    bvh : geometry.hydroelastic.bvh.Bvh or None
        The tree over the mesh's tetrahedra or triangles (meshes only).
    field : ndarray (nt, 4) or None
        Volumes: per tet the pressure p(x) = field[t, 3] + field[t, :3]·x in G.
    planes : ndarray (nt, 4, 4) or None
        Volumes: per tet the face planes (n, off), n·x <= off inside, in G (a tet without
        volume rejects every point).
    bounds : ndarray (num_nodes + nt, 5) or None
        Volumes: the affine pressure bounds of the tree's nodes and tets
        (`geometry.hydroelastic.bvh.pressure_bounds`), in G.
    """

    compliant: bool
    kind: str
    mesh: object = None
    modulus: float = float("inf")
    thickness: float = 0.0
    bvh: object = None
    field: np.ndarray = None
    planes: np.ndarray = None
    bounds: np.ndarray = None


def _need(props, name, fn, gid):
    if not props.has_property(HYDROELASTIC, name):
        raise ValueError(f"{fn}: compliant hydroelastic geometry {gid} has no "
                         f"('hydroelastic', {name!r}) property")
    return float(props.get_property(HYDROELASTIC, name))


def _strategy(props, fn, gid):
    """The geometry's ``("hydroelastic", "tessellation_strategy")``, kSingleInteriorVertex
    when absent; an unknown value raises naming the geometry and the property."""
    value = props.get_property_or_default(HYDROELASTIC, "tessellation_strategy",
                                          TessellationStrategy.kSingleInteriorVertex)
    return as_tessellation_strategy(
        value, fn, f"geometry {gid}'s ('hydroelastic', 'tessellation_strategy') property")


def _volume(mesh, modulus):
    """A compliant volume's representation: the mesh, its tet tree and field tables."""
    nt = mesh.tetrahedra.shape[0]
    G, C, planes = np.empty((nt, 3)), np.empty(nt), np.empty((nt, 4, 4))
    tet_tables(mesh.vertices_G, mesh.pressure, mesh.tetrahedra, G, C, planes)
    bvh = build_bvh(mesh.vertices_G, mesh.tetrahedra)
    field = np.ascontiguousarray(np.column_stack([G, C]))
    return HydroelasticRepresentation(True, "volume", mesh, modulus, bvh=bvh, field=field,
                                      planes=planes,
                                      bounds=pressure_bounds(bvh, mesh.vertices_G,
                                                             mesh.tetrahedra, field))


def _surface(mesh):
    """A rigid surface's representation: the mesh and its triangle tree."""
    return HydroelasticRepresentation(False, "surface", mesh,
                                      bvh=build_bvh(mesh.vertices_G, mesh.triangles))


def _hull_vertices(shape):
    return shape.convex_hull_vertices()


def _tetrahedra(shape):
    """(vertices, tetrahedra) of a Mesh whose data is a ``.vtk`` tetrahedral mesh (Drake
    uses that mesh itself, not a hull), else None."""
    if isinstance(shape, Mesh) and shape.extension() == ".vtk":
        return load_vtk_tetrahedra(shape.source(), shape.scale3())
    return None


def make_representation(shape, props, gid=None):
    """The HydroelasticRepresentation of `shape` with ProximityProperties `props`, or None
    when it has no hydroelastic properties or its shape is not supported yet; `gid` names
    the geometry in errors (a ValueError for missing properties, an unknown compliance
    type or tessellation strategy, or a zero-radius Sphere)."""
    fn = "make_representation"
    if props is None or not props.has_property(HYDROELASTIC, "compliance_type"):
        return None
    kind = props.get_property(HYDROELASTIC, "compliance_type")
    hint = props.get_property_or_default(HYDROELASTIC, "resolution_hint", None)
    if isinstance(shape, Sphere) and shape.radius() == 0.0:
        raise ValueError(f"{fn}: geometry {gid} is a zero-radius Sphere (a contact point) "
                         f"with {kind} hydroelastic properties: it has no surface or volume "
                         f"to make a hydroelastic representation of; give it point contact "
                         f"(no ('hydroelastic', 'compliance_type') property)")
    if kind == "compliant":
        E = _need(props, "hydroelastic_modulus", fn, gid)
        if isinstance(shape, HalfSpace):
            return HydroelasticRepresentation(True, "slab", None, E,
                                              _need(props, "slab_thickness", fn, gid))
        if isinstance(shape, Sphere):
            h = _need(props, "resolution_hint", fn, gid)
            return _volume(make_sphere_volume_mesh(
                shape.radius(), h, E, tessellation_strategy=_strategy(props, fn, gid)), E)
        if isinstance(shape, Box):          # no resolution hint needed (as in Drake)
            return _volume(make_box_volume_mesh(shape.size(), None, E), E)
        if isinstance(shape, Ellipsoid):
            h = _need(props, "resolution_hint", fn, gid)
            return _volume(make_ellipsoid_volume_mesh(
                shape.a(), shape.b(), shape.c(), h, E,
                tessellation_strategy=_strategy(props, fn, gid)), E)
        if isinstance(shape, Cylinder):
            h = _need(props, "resolution_hint", fn, gid)
            return _volume(make_cylinder_volume_mesh(
                shape.radius(), shape.length(), h, E), E)
        if isinstance(shape, Capsule):
            h = _need(props, "resolution_hint", fn, gid)
            return _volume(make_capsule_volume_mesh(
                shape.radius(), shape.length(), h, E), E)
        tets = _tetrahedra(shape)
        if tets is not None:
            return _volume(make_tetrahedral_volume_mesh(*tets, E, where=gid), E)
        if isinstance(shape, (Convex, Mesh)):
            return _volume(make_convex_volume_mesh(
                _hull_vertices(shape), E), E)
        return None
    if kind == "rigid":
        if isinstance(shape, HalfSpace):
            return HydroelasticRepresentation(False, "plane")
        if isinstance(shape, Box):          # the hint is ignored (as in Drake)
            return _surface(make_box_surface_mesh(shape.size()))
        if isinstance(shape, Sphere):
            return _surface(make_sphere_surface_mesh(
                shape.radius(), hint))
        if isinstance(shape, Ellipsoid):
            return _surface(make_ellipsoid_surface_mesh(
                shape.a(), shape.b(), shape.c(), hint))
        if isinstance(shape, Cylinder):
            return _surface(make_cylinder_surface_mesh(
                shape.radius(), shape.length(), hint))
        if isinstance(shape, Capsule):
            return _surface(make_capsule_surface_mesh(
                shape.radius(), shape.length(), hint))
        tets = _tetrahedra(shape)
        if tets is not None:
            return _surface(make_tetrahedral_surface_mesh(*tets))
        if isinstance(shape, (Convex, Mesh)):
            return _surface(make_convex_surface_mesh(
                _hull_vertices(shape)))
        return None
    raise ValueError(f"{fn}: geometry {gid} has compliance_type {kind!r}, expected "
                     f"'rigid' or 'compliant'")
