"""Lines, triangle meshes, surfaces, point clouds and cameras as meshcat scene objects
(three.js JSON, version 4.5): the objects of Drake's Meshcat::SetLine, SetLineSegments,
SetTriangleMesh, SetTriangleColorMesh, PlotSurface, SetObject(path, cloud, ...),
SetObject(path, mesh, ...) and SetCamera.

Vertex data go in a ``BufferGeometry`` with a ``position`` attribute (and a per-vertex
``color`` attribute for colored meshes), triangles in its ``index``; lines use
``LineBasicMaterial`` (``Line`` through the vertices, or ``LineSegments`` between pairs),
meshes ``MeshPhongMaterial`` with three.js's ``side`` (0 front, 1 back, 2 double), point
clouds ``Points`` with a ``PointsMaterial`` (per-point colors when the cloud has rgbs). The
arrays are checked here: (3, N) finite vertices, (3, M) faces indexing them.
"""

from __future__ import annotations


import numpy as np

from merganser.framework.drake_enum import DrakeIntEnum
from merganser.geometry.visualization.meshcat_shapes import _color_int, _matrix, _uid

__all__ = ["OrthographicCamera", "PerspectiveCamera", "SideOfFaceToRender", "camera_object",
           "line_object", "point_cloud_object", "surface_arrays", "triangle_mesh_object"]


class SideOfFaceToRender(DrakeIntEnum):
    """Which side of a triangle is drawn (Drake's Meshcat::SideOfFaceToRender)."""

    kFrontSide = 0
    kBackSide = 1
    kDoubleSide = 2


class PerspectiveCamera:
    """Drake's Meshcat::PerspectiveCamera: fov (degrees), aspect, near, far, zoom."""

    def __init__(self, *, fov=75.0, aspect=1.0, near=0.01, far=100.0, zoom=1.0):
        self.fov, self.aspect, self.near, self.far, self.zoom = (
            float(fov), float(aspect), float(near), float(far), float(zoom))

    def __repr__(self):
        return (f"PerspectiveCamera(fov={self.fov}, aspect={self.aspect}, near={self.near}, "
                f"far={self.far}, zoom={self.zoom})")


class OrthographicCamera:
    """Drake's Meshcat::OrthographicCamera: the view box (left, right, top, bottom, near,
    far) and zoom."""

    def __init__(self, *, left=-1.0, right=1.0, top=-1.0, bottom=1.0, near=-1000.0,
                 far=1000.0, zoom=1.0):
        self.left, self.right, self.top, self.bottom = (float(left), float(right),
                                                         float(top), float(bottom))
        self.near, self.far, self.zoom = float(near), float(far), float(zoom)

    def __repr__(self):
        return (f"OrthographicCamera(left={self.left}, right={self.right}, top={self.top}, "
                f"bottom={self.bottom}, near={self.near}, far={self.far}, zoom={self.zoom})")


def _points(fn, name, value):
    a = np.asarray(value, dtype=float)
    if a.ndim != 2 or a.shape[0] != 3 or not np.all(np.isfinite(a)):
        raise ValueError(f"Meshcat.{fn}: {name} must be a finite (3, N) array, got shape "
                         f"{a.shape}")
    return a


def _rgba(rgba):
    """(4,) of an Rgba (its ``rgba`` values) or of four numbers."""
    values = getattr(rgba, "rgba", rgba)
    return np.asarray(values() if callable(values) else values, dtype=float).reshape(4)


def _attribute(array):
    return {"itemSize": 3, "type": "Float32Array", "normalized": False,
            "array": [float(x) for x in np.asarray(array, dtype=float).T.ravel()]}


def _object(geometry, material, kind):
    return {"metadata": {"version": 4.5, "type": "Object"},
            "geometries": [geometry], "materials": [material],
            "object": {"uuid": _uid(), "type": kind, "name": "<object>",
                       "geometry": geometry["uuid"], "material": material["uuid"],
                       "matrix": _matrix()}}


def line_object(fn, vertices, line_width, rgba, segments=False):
    """A ``Line`` through the (3, N) `vertices` (or ``LineSegments`` between consecutive
    pairs when `segments`)."""
    vertices = _points(fn, "vertices", vertices)
    if not (np.isfinite(line_width) and line_width > 0.0):
        raise ValueError(f"Meshcat.{fn}: line_width must be positive, got {line_width!r}")
    color = _rgba(rgba)
    geometry = {"uuid": _uid(), "type": "BufferGeometry",
                "data": {"attributes": {"position": _attribute(vertices)}}}
    material = {"uuid": _uid(), "type": "LineBasicMaterial", "color": _color_int(color),
                "linewidth": float(line_width), "transparent": bool(color[3] < 1.0),
                "opacity": float(color[3])}
    return _object(geometry, material, "LineSegments" if segments else "Line")


def triangle_mesh_object(fn, vertices, faces, rgba=None, colors=None, wireframe=False,
                         wireframe_line_width=1.0, side=SideOfFaceToRender.kDoubleSide):
    """A ``Mesh`` of the (3, N) `vertices` and (3, M) `faces`, colored by `rgba` or by the
    (3, N) per-vertex `colors`."""
    vertices = _points(fn, "vertices", vertices)
    f = np.asarray(faces)
    if f.ndim != 2 or f.shape[0] != 3 or (f.size and (not np.issubdtype(f.dtype, np.integer)
                                                     or f.min() < 0
                                                     or f.max() >= vertices.shape[1])):
        raise ValueError(f"Meshcat.{fn}: faces must be a (3, M) integer array of vertex "
                         f"indices in [0, {vertices.shape[1]}), got shape {f.shape}")
    attributes = {"position": _attribute(vertices)}
    material = {"uuid": _uid(), "type": "MeshPhongMaterial", "side": int(side),
                "wireframe": bool(wireframe),
                "wireframeLinewidth": float(wireframe_line_width)}
    if colors is not None:
        colors = _points(fn, "colors", colors)
        if colors.shape != vertices.shape:
            raise ValueError(f"Meshcat.{fn}: colors must have the shape of vertices "
                             f"{vertices.shape}, got {colors.shape}")
        attributes["color"] = _attribute(np.clip(colors, 0.0, 1.0))
        material.update(vertexColors=True, color=0xFFFFFF)
    else:
        color = _rgba(rgba)
        material.update(color=_color_int(color), transparent=bool(color[3] < 1.0),
                        opacity=float(color[3]))
    geometry = {"uuid": _uid(), "type": "BufferGeometry",
                "data": {"attributes": attributes,
                         "index": {"type": "Uint32Array",
                                   "array": [int(i) for i in f.T.ravel()]}}}
    return _object(geometry, material, "Mesh")


def point_cloud_object(fn, cloud, point_size, rgba):
    """A ``Points`` object of a PointCloud's xyzs (3, N), colored by its rgbs when it has
    them (each channel / 255), else by `rgba`; `point_size` is the ``PointsMaterial`` size
    (m, as Drake reads three.js's unit). Every point is sent, also those with the default
    (NaN) position."""
    if not (hasattr(cloud, "xyzs") and hasattr(cloud, "has_rgbs")):
        raise TypeError(f"Meshcat.{fn}: cloud must be a PointCloud, got "
                        f"{type(cloud).__name__}")
    if not cloud.has_xyzs():
        raise ValueError(f"Meshcat.{fn}: cloud must have xyzs, got a cloud with "
                         f"{cloud.fields()!r}")
    point_size = float(point_size)
    if not (np.isfinite(point_size) and point_size > 0.0):
        raise ValueError(f"Meshcat.{fn}: point_size must be finite and > 0, got "
                         f"{point_size!r}")
    attributes = {"position": _attribute(cloud.xyzs())}
    if cloud.has_rgbs():
        attributes["color"] = _attribute(np.asarray(cloud.rgbs(), dtype=float) / 255.0)
    color = _rgba(rgba)
    geometry = {"uuid": _uid(), "type": "BufferGeometry", "data": {"attributes": attributes}}
    material = {"uuid": _uid(), "type": "PointsMaterial", "color": _color_int(color),
                "transparent": bool(color[3] != 1.0), "opacity": float(color[3]),
                "size": point_size, "vertexColors": bool(cloud.has_rgbs())}
    return _object(geometry, material, "Points")


def surface_arrays(fn, X, Y, Z):
    """(vertices (3, m n), faces (3, 2 (m-1)(n-1))) of the grid surface z = Z(X, Y)."""
    X, Y, Z = (np.asarray(a, dtype=float) for a in (X, Y, Z))
    if X.ndim != 2 or X.shape != Y.shape or X.shape != Z.shape or min(X.shape) < 2:
        raise ValueError(f"Meshcat.{fn}: X, Y and Z must be (m, n) grids of one shape with "
                         f"m, n >= 2, got {X.shape}, {Y.shape}, {Z.shape}")
    m, n = X.shape
    vertices = np.vstack([X.ravel(), Y.ravel(), Z.ravel()])
    i, j = np.meshgrid(np.arange(m - 1), np.arange(n - 1), indexing="ij")
    a = (i * n + j).ravel()
    b, c, d = a + 1, a + n, a + n + 1
    faces = np.hstack([np.vstack([a, c, b]), np.vstack([b, c, d])])
    return vertices, faces


def camera_object(camera):
    """The three.js camera object of a PerspectiveCamera or an OrthographicCamera."""
    if isinstance(camera, PerspectiveCamera):
        obj = {"type": "PerspectiveCamera", "fov": camera.fov, "aspect": camera.aspect,
               "near": camera.near, "far": camera.far, "zoom": camera.zoom}
    elif isinstance(camera, OrthographicCamera):
        obj = {"type": "OrthographicCamera", "left": camera.left, "right": camera.right,
               "top": camera.top, "bottom": camera.bottom, "near": camera.near,
               "far": camera.far, "zoom": camera.zoom}
    else:
        raise TypeError(f"Meshcat.set_camera: camera must be a PerspectiveCamera or an "
                        f"OrthographicCamera, got {type(camera).__name__}")
    obj.update(uuid=_uid(), matrix=_matrix())
    return {"metadata": {"version": 4.5, "type": "Object"}, "geometries": [],
            "materials": [], "object": obj}
