"""Shapes as meshcat scene objects: the three.js JSON object format (version 4.5) that the
meshcat viewer's ``set_object`` command loads.

Conventions: three.js boxes are (width, height, depth) along (x, y, z), so a
``Box(width, depth, height)`` maps directly to x, y, z; three.js cylinders run along y,
so a ``Cylinder`` (along z) gets the rotation Rx(π/2) in its object matrix; an
``Ellipsoid`` is a unit sphere scaled by (a, b, c); a ``Capsule`` is a group of a cylinder
and two spheres; a ``HalfSpace`` is drawn as a 10 m square slab below z = 0; ``Mesh`` and
``Convex`` files (.obj, .dae, .stl) are embedded as ``_meshfile_object`` (.obj, .dae, which
keep their own materials unless a color is given) or ``_meshfile_geometry`` (.stl) with the
file's contents. Matrices are column-major 16-lists as three.js stores them.
"""

from __future__ import annotations

import base64
import uuid
import warnings
from pathlib import Path

import numpy as np

__all__ = ["MESH_FORMATS", "arrow_object", "image_data_uri", "shape_to_object",
           "with_diffuse_map"]

MESH_FORMATS = ("obj", "dae", "stl")
#: Mesh formats the viewer cannot read, drawn as their triangles (read through trimesh,
#: glTF turned z-up as Drake does) in a single color: their materials and textures are
#: not shown.
TRIANGLE_FORMATS = ("gltf", "glb", "ply", "off", "3mf")
_HALF_SPACE_SIZE = 10.0
_HALF_SPACE_THICKNESS = 0.02


def _uid():
    return str(uuid.uuid4())


def _matrix(X=None):
    """Column-major list of a (4, 4) matrix (identity when None)."""
    return list(np.asarray(np.eye(4) if X is None else X, dtype=float).T.ravel())


def _color_int(rgba):
    r, g, b = (int(round(255 * float(np.clip(c, 0.0, 1.0)))) for c in rgba[:3])
    return (r << 16) + (g << 8) + b


def _material(rgba):
    rgba = np.asarray(rgba, dtype=float)
    material = {"uuid": _uid(), "type": "MeshPhongMaterial", "color": _color_int(rgba),
                "reflectivity": 0.5, "side": 2, "transparent": bool(rgba[3] < 1.0),
                "opacity": float(rgba[3])}
    return material


def _mesh(geometry, rgba, X=None, name="<object>"):
    """A three.js object JSON of one Mesh with one geometry and one material."""
    material = _material(rgba)
    return {"metadata": {"version": 4.5, "type": "Object"},
            "geometries": [geometry], "materials": [material],
            "object": {"uuid": _uid(), "type": "Mesh", "name": name,
                       "geometry": geometry["uuid"], "material": material["uuid"],
                       "matrix": _matrix(X)}}


def _group(children, X=None):
    """Merge object JSONs `children` into one Group object JSON."""
    out = {"metadata": {"version": 4.5, "type": "Object"}, "geometries": [], "materials": [],
           "object": {"uuid": _uid(), "type": "Group", "name": "<object>",
                      "matrix": _matrix(X), "children": []}}
    for child in children:
        out["geometries"] += child["geometries"]
        out["materials"] += child["materials"]
        out["object"]["children"].append(child["object"])
    return out


def _rot_x_half_pi(scale=(1.0, 1.0, 1.0), p=(0.0, 0.0, 0.0)):
    X = np.eye(4)
    X[:3, :3] = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]]) @ np.diag(scale)
    X[:3, 3] = p
    return X


def _box(x, y, z):
    return {"uuid": _uid(), "type": "BoxGeometry", "width": float(x), "height": float(y),
            "depth": float(z)}


def _sphere(r):
    return {"uuid": _uid(), "type": "SphereGeometry", "radius": float(r),
            "widthSegments": 24, "heightSegments": 16}


def _cylinder(r, length, r_top=None):
    return {"uuid": _uid(), "type": "CylinderGeometry",
            "radiusTop": float(r if r_top is None else r_top), "radiusBottom": float(r),
            "height": float(length), "radialSegments": 24}


def _mesh_file(source, scale, rgba):
    """A mesh's data (a MeshSource: a path or in memory) as a meshcat object."""
    fmt = source.extension().lstrip(".")
    where = source.description()
    if fmt == "vtk":            # a tetrahedral mesh (hydroelastic): drawn as its surface
        return _tetrahedral_surface(source, scale, rgba)
    if fmt in TRIANGLE_FORMATS:  # formats the viewer does not read: sent as .obj triangles
        from ..proximity.mesh_loading import load_triangles
        vertices, faces, _ = load_triangles(source)
        return _obj_triangles(vertices * np.broadcast_to(np.asarray(scale, float), (3,)),
                              faces, rgba)
    if fmt not in MESH_FORMATS:
        raise ValueError(f"shape_to_object: mesh {where!r} has format {fmt!r}; "
                         f"the visualizer reads {MESH_FORMATS}")
    if source.is_path():
        path = Path(where)
        if not path.is_file():
            raise FileNotFoundError(f"shape_to_object: mesh file {where!r} does not exist")
        raw = path.read_bytes()
    else:
        raw = source.in_memory().mesh_file.contents()
    text = raw.decode("utf-8", errors="replace")
    X = np.diag([*np.broadcast_to(np.asarray(scale, dtype=float), (3,)), 1.0])
    if fmt == "stl" or rgba is not None:
        color = np.array([0.9, 0.9, 0.9, 1.0]) if rgba is None else rgba
        data = raw if fmt == "stl" else text
        geometry = {"uuid": _uid(), "type": "_meshfile_geometry", "format": fmt, "data": data}
        return _mesh(geometry, color, X)
    return {"metadata": {"version": 4.5, "type": "Object"}, "geometries": [], "materials": [],
            "object": {"uuid": _uid(), "type": "_meshfile_object", "format": fmt,
                       "data": text, "resources": {}, "matrix": _matrix(X)}}


def _obj_triangles(vertices, faces, rgba):
    """Triangles (vertices (n, 3), faces (m, 3)) as an .obj meshcat object of color
    `rgba` (light grey when None: the file's own materials and textures are not sent)."""
    text = ("".join(f"v {x:.17g} {y:.17g} {z:.17g}\n" for x, y, z in vertices)
            + "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in faces))
    color = np.array([0.9, 0.9, 0.9, 1.0]) if rgba is None else rgba
    geometry = {"uuid": _uid(), "type": "_meshfile_geometry", "format": "obj", "data": text}
    return _mesh(geometry, color, np.eye(4))


def _tetrahedral_surface(source, scale, rgba):
    """The boundary surface of a ``.vtk`` tetrahedral mesh as an .obj meshcat object."""
    from ..proximity.vtk_volume_mesh import boundary_triangles, load_vtk_tetrahedra
    vertices, tetrahedra = load_vtk_tetrahedra(
        source, np.broadcast_to(np.asarray(scale, dtype=float), (3,)))
    return _obj_triangles(vertices, boundary_triangles(tetrahedra), rgba)


def shape_to_object(shape, rgba=None):
    """The meshcat object (three.js JSON dict) drawing `shape` in its geometry frame.

    Parameters
    ----------
    shape : geometry.Shape
        Box, Sphere, Cylinder, Capsule, Ellipsoid, HalfSpace, Mesh, Convex or MeshcatCone.
    rgba : array_like, shape (4,), optional
        Color in [0, 1]; default light grey (meshes keep their own materials when None).

    Raises
    ------
    TypeError
        For an unknown shape.
    """
    kind = type(shape).__name__
    color = np.array([0.9, 0.9, 0.9, 1.0]) if rgba is None else np.asarray(rgba, float)
    if kind == "Box":
        return _mesh(_box(shape.width(), shape.depth(), shape.height()), color)
    if kind == "Sphere":
        return _mesh(_sphere(shape.radius()), color)
    if kind == "Cylinder":
        return _mesh(_cylinder(shape.radius(), shape.length()), color, _rot_x_half_pi())
    if kind == "Ellipsoid":
        return _mesh(_sphere(1.0), color, np.diag([shape.a(), shape.b(), shape.c(), 1.0]))
    if kind == "Capsule":
        r, length = shape.radius(), shape.length()
        return _group([_mesh(_cylinder(r, length), color, _rot_x_half_pi()),
                       _mesh(_sphere(r), color, _translation(0.0, 0.0, length / 2)),
                       _mesh(_sphere(r), color, _translation(0.0, 0.0, -length / 2))])
    if kind == "HalfSpace":
        return _mesh(_box(_HALF_SPACE_SIZE, _HALF_SPACE_SIZE, _HALF_SPACE_THICKNESS), color,
                     _translation(0.0, 0.0, -_HALF_SPACE_THICKNESS / 2))
    if kind in ("Mesh", "Convex"):
        return _mesh_file(shape.source(), shape.scale3(), rgba)
    if kind == "MeshcatCone":     # unit cone (apex -y, rim +y) -> apex at Go, rim at z = h
        h = shape.height()
        return _mesh(_cylinder(0.0, 1.0, r_top=1.0), color,
                     _rot_x_half_pi(scale=(shape.a(), h, shape.b()), p=(0.0, 0.0, h / 2)))
    raise TypeError(f"shape_to_object: cannot draw a {kind}; expected one of Box, Sphere, "
                    f"Cylinder, Capsule, Ellipsoid, HalfSpace, Mesh, Convex, MeshcatCone")


def _translation(x, y, z):
    X = np.eye(4)
    X[:3, 3] = [x, y, z]
    return X


def arrow_object(rgba, shaft_radius=0.01, head_radius=0.025, head_length=0.05):
    """A unit arrow along +z from the origin: a shaft of length 1 (to be scaled along z)
    whose head is a separate child object (see `ContactVisualizer`).

    Returns
    -------
    (dict, dict)
        The shaft and the head object JSONs.
    """
    shaft = _mesh(_cylinder(shaft_radius, 1.0), rgba, _rot_x_half_pi(p=(0.0, 0.0, 0.5)))
    head = _mesh(_cylinder(head_radius, head_length, r_top=0.0), rgba,
                 _rot_x_half_pi(p=(0.0, 0.0, head_length / 2)))
    return shaft, head


#: three.js's RepeatWrapping, the wrap mode of a diffuse map on both texture axes.
_REPEAT_WRAPPING = 1000


def image_data_uri(image_path):
    """The image file `image_path` as a ``data:image/<kind>;base64,...`` URI (the kind from
    its suffix; "jpg" is "jpeg").

    Raises
    ------
    OSError
        When the file cannot be read.
    """
    path = Path(image_path)
    data = path.read_bytes()
    kind = path.suffix.lstrip(".").lower() or "png"
    kind = "jpeg" if kind == "jpg" else kind
    return f"data:image/{kind};base64,{base64.b64encode(data).decode('ascii')}"


def with_diffuse_map(obj, shape, diffuse_map):
    """`obj` (the object JSON of `shape`) textured by the image file `diffuse_map`, as
    Drake's Meshcat::SetObject(path, shape, rgba, diffuse_map) does: every material of the
    object gets the image as its ``map`` (tinted by the material's color), repeated on both
    texture axes. Drake's exceptions are kept: an empty `diffuse_map` is no texture; a Mesh
    or a Convex is not textured, and an unreadable file is ignored, each with a warning.

    Parameters
    ----------
    obj : dict
        The three.js object JSON made by `shape_to_object`; changed in place.
    shape : geometry.Shape
    diffuse_map : str or Path
        The image file (png, jpeg, webp, ...), or "".

    Returns
    -------
    dict
        `obj`.
    """
    if not isinstance(diffuse_map, (str, Path)):
        raise TypeError(f"Meshcat.set_object: diffuse_map must be a str or Path, got "
                        f"{type(diffuse_map).__name__}")
    if not str(diffuse_map):
        return obj
    kind = type(shape).__name__
    if kind in ("Mesh", "Convex"):
        warnings.warn(f"Meshcat.set_object: diffuse_map is not applied to a {kind} (it is "
                      f"ignored): {str(diffuse_map)!r}", UserWarning, stacklevel=3)
        return obj
    try:
        url = image_data_uri(diffuse_map)
    except OSError as exc:
        warnings.warn(f"Meshcat.set_object: cannot read the diffuse_map texture "
                      f"{str(diffuse_map)!r} ({exc.strerror}); the texture is ignored",
                      UserWarning, stacklevel=3)
        return obj
    image = {"uuid": _uid(), "url": url}
    texture = {"uuid": _uid(), "image": image["uuid"],
               "wrap": [_REPEAT_WRAPPING, _REPEAT_WRAPPING], "repeat": [1, 1]}
    obj["images"] = [image]
    obj["textures"] = [texture]
    for material in obj["materials"]:
        material["map"] = texture["uuid"]
    return obj
