"""Shapes: the geometric primitives and meshes that SceneGraph can hold.

Every shape is defined in its own frame G (the geometry frame):

==============  ==========================================================================
``Sphere``      radius r, centred at Go
``Box``         width (x), depth (y), height (z), centred at Go
``Cylinder``    radius r, length l along z, centred at Go
``Capsule``     radius r, length l of the core segment along z, centred at Go
``Ellipsoid``   semi-axes a, b, c along x, y, z
``HalfSpace``   z <= 0 of G (outward normal +z)
``Mesh``        a triangle mesh file (scaled); proximity queries use its convex hull
``Convex``      the convex hull of a mesh file (scaled)
``MeshcatCone`` an elliptic cone (visualization only)
==============  ==========================================================================

Each shape has a ``type_code`` and ``kernel_params()`` (a float64 array) read by the
compiled proximity kernels (`geometry.proximity.shape_codes`).
"""

import copy
import math
import os

import numpy as np

from .mesh_source import InMemoryMesh, MemoryFile, MeshSource

__all__ = ["Shape", "Sphere", "Box", "Cylinder", "Capsule", "Ellipsoid", "HalfSpace", "Mesh",
           "Convex", "MeshcatCone"]

# Shape type codes shared with the proximity kernels.
SPHERE, BOX, CYLINDER, CAPSULE, ELLIPSOID, HALFSPACE, CONVEX = range(7)


def _positive(cls, arg, value):
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{cls}: {arg} must be a number, got {type(value).__name__}") from None
    if not (math.isfinite(x) and x > 0.0):
        raise ValueError(f"{cls}: {arg} must be finite and > 0, got {value!r}")
    return x


def _nonnegative(cls, arg, value):
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{cls}: {arg} must be a number, got {type(value).__name__}") from None
    if not (math.isfinite(x) and x >= 0.0):
        raise ValueError(f"{cls}: {arg} must be finite and >= 0, got {value!r}")
    return x


def _and(names):
    return ", ".join(names[:-1]) + " and " + names[-1]


def _measures(cls, names, values, measures):
    """The dimensions `names` as positive floats, given one by one (`values`) or as one
    vector `measures` (Drake's ``measures`` overloads); a vector may also come as the
    first positional value."""
    if measures is None and values[0] is not None and all(v is None for v in values[1:]) \
            and np.ndim(values[0]) == 1:
        measures = values[0]
    if measures is not None:
        if any(v is not None for v in values) and measures is not values[0]:
            raise TypeError(f"{cls}: give {_and(names)} or measures, not both")
        if np.shape(measures) != (len(names),):
            raise ValueError(f"{cls}: measures must be [{', '.join(names)}], got {measures!r}")
        values = [float(x) for x in measures]
    elif any(v is None for v in values):
        raise TypeError(f"{cls}: give {_and(names)} (or measures, a vector of them); got "
                        + ", ".join(f"{n}={v!r}" for n, v in zip(names, values)))
    return [_positive(cls, n, v) for n, v in zip(names, values)]



def _num(x):
    """A dimension as Drake prints it: the shortest round-trip form, integral values
    without ".0" (``1``, ``0.5``, ``3e-07``)."""
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text

class Shape:
    """Base class of the shapes (see the module docstring)."""

    type_code = -1

    def kernel_params(self):
        """Parameters read by the proximity kernels (float64 array)."""
        raise NotImplementedError

    def __eq__(self, other):
        return type(self) is type(other) and self._key() == other._key()

    def __hash__(self):
        return hash((type(self).__name__, self._key()))

    def _key(self):
        return tuple(self.kernel_params().tolist())

    def clone(self):
        """A new shape equal to this one (Drake's ``Shape::Clone``)."""
        return copy.deepcopy(self)


class Sphere(Shape):
    """A sphere of `radius` (m, >= 0) centred at the origin of its frame; as in Drake, a
    zero radius is allowed (a point, as Drake's models use for contact points)."""

    type_code = SPHERE

    def __init__(self, radius):
        self._r = _nonnegative("Sphere", "radius", radius)

    def radius(self):
        return self._r

    def kernel_params(self):
        return np.array([self._r])

    def __repr__(self):
        return f"Sphere(radius={_num(self._r)})"


class Box(Shape):
    """A box of `width` (x), `depth` (y) and `height` (z) (m) centred at its frame origin;
    ``Box(measures)`` takes the three as one vector (Drake's overload)."""

    type_code = BOX

    def __init__(self, width=None, depth=None, height=None, *, measures=None):
        self._size = np.array(_measures("Box", ("width", "depth", "height"),
                                        [width, depth, height], measures))

    @classmethod
    def make_cube(cls, edge_size):
        """A cube of edge `edge_size` (m)."""
        return cls(edge_size, edge_size, edge_size)

    def width(self):
        return float(self._size[0])

    def depth(self):
        return float(self._size[1])

    def height(self):
        return float(self._size[2])

    def size(self):
        """[width, depth, height] (3,)."""
        return self._size.copy()

    def kernel_params(self):
        return 0.5 * self._size

    def __repr__(self):
        return (f"Box(width={_num(self.width())}, depth={_num(self.depth())}, "
                f"height={_num(self.height())})")


class _RadiusLength(Shape):
    """A shape given by `radius` and `length` (m) along the z axis of its frame, centred;
    kernel parameters [radius, length / 2]."""

    def __init__(self, radius=None, length=None, *, measures=None):
        self._r, self._l = _measures(type(self).__name__, ("radius", "length"),
                                     [radius, length], measures)

    def radius(self):
        return self._r

    def length(self):
        return self._l

    def kernel_params(self):
        return np.array([self._r, 0.5 * self._l])

    def __repr__(self):
        return f"{type(self).__name__}(radius={_num(self._r)}, length={_num(self._l)})"


class Cylinder(_RadiusLength):
    """A cylinder of `radius` and `length` (m) along the z axis of its frame, centred."""

    type_code = CYLINDER


class Capsule(_RadiusLength):
    """A capsule: the points within `radius` of a segment of `length` along z (centred)."""

    type_code = CAPSULE


class Ellipsoid(Shape):
    """An ellipsoid with semi-axes `a`, `b`, `c` (m) along x, y, z of its frame."""

    type_code = ELLIPSOID

    def __init__(self, a=None, b=None, c=None, *, measures=None):
        self._abc = np.array(_measures("Ellipsoid", ("a", "b", "c"), [a, b, c], measures))

    def a(self):
        return float(self._abc[0])

    def b(self):
        return float(self._abc[1])

    def c(self):
        return float(self._abc[2])

    def kernel_params(self):
        return self._abc.copy()

    def __repr__(self):
        return f"Ellipsoid(a={_num(self.a())}, b={_num(self.b())}, c={_num(self.c())})"


class MeshcatCone(Shape):
    """An elliptic cone for visualization only (Drake's MeshcatCone): apex at the frame
    origin, opening along +z to an ellipse of semi-axes `a` (x), `b` (y) at z = `height`.

    It has no proximity representation (registering it for proximity raises).
    """

    def __init__(self, height=None, a=None, b=None, *, measures=None):
        self._hab = np.array(_measures("MeshcatCone", ("height", "a", "b"), [height, a, b],
                                       measures))

    def height(self):
        return float(self._hab[0])

    def a(self):
        return float(self._hab[1])

    def b(self):
        return float(self._hab[2])

    def kernel_params(self):
        raise RuntimeError(f"{self!r}: a MeshcatCone is for visualization only; it has no "
                           f"proximity (collision) representation")

    def _key(self):
        return tuple(self._hab.tolist())

    def __repr__(self):
        return f"MeshcatCone(height={self.height()}, a={self.a()}, b={self.b()})"


class HalfSpace(Shape):
    """The half space z <= 0 of its frame G (outward normal +Gz)."""

    type_code = HALFSPACE

    def kernel_params(self):
        return np.zeros(1)

    @staticmethod
    def make_pose(Hz_dir_F, p_FB):
        """Pose X_FH of a half space whose outward normal is `Hz_dir_F` and whose boundary
        passes through `p_FB` (both in frame F); returns a RigidTransform."""
        from .rigid_transform import RigidTransform
        from .rotation_matrix import RotationMatrix
        n = np.array(Hz_dir_F, dtype=float).reshape(3)
        norm = np.linalg.norm(n)
        if not norm > 1e-10:
            raise ValueError(f"HalfSpace.make_pose: Hz_dir_F must be nonzero, got {n.tolist()}")
        z = n / norm
        a = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
        x = np.cross(a, z)
        x /= np.linalg.norm(x)
        y = np.cross(z, x)
        return RigidTransform(RotationMatrix(np.column_stack([x, y, z])), p_FB)

    def __repr__(self):
        return "HalfSpace()"


def _scale3(cls, scale):
    s = np.array(scale, dtype=float).reshape(-1)
    if s.size == 1:
        s = np.repeat(s, 3)
    if s.shape != (3,) or not np.all(np.isfinite(s)) or np.any(s == 0.0):
        raise ValueError(f"{cls}: scale must be a nonzero number or 3 nonzero numbers, got "
                         f"{scale!r}")
    return s


def _mesh_source(cls, filename, mesh_data, source):
    """The one MeshSource given as `filename` (a path, MeshSource or InMemoryMesh given
    positionally), `mesh_data` (InMemoryMesh) or `source` (MeshSource)."""
    given = [x for x in (filename, mesh_data, source) if x is not None]
    if len(given) != 1:
        raise TypeError(f"{cls}: give exactly one of filename, mesh_data or source; got "
                        f"{len(given)}")
    x = given[0]
    if isinstance(x, MeshSource):
        return MeshSource(other=x)
    if isinstance(x, InMemoryMesh):
        return MeshSource(mesh=x)
    if isinstance(x, (str, os.PathLike)):
        return MeshSource(path=os.path.abspath(os.fspath(x)))
    raise TypeError(f"{cls}: filename must be a path (or a MeshSource / InMemoryMesh), got "
                    f"{type(x).__name__}")


class _MeshBase(Shape):
    """Mesh data (a path or in memory, see `mesh_source`) with a scale. Nothing is read at
    construction (a path need not exist yet, as in Drake); the vertices are loaded
    (through trimesh) on first use, which raises RuntimeError naming the file if it
    cannot be read."""

    type_code = CONVEX

    def __init__(self, filename=None, scale=None, *, scale3=None, mesh_data=None, source=None):
        cls = type(self).__name__
        self._source = _mesh_source(cls, filename, mesh_data, source)
        if scale is not None and scale3 is not None:
            raise TypeError(f"{cls}: give scale or scale3, not both")
        self._scale = _scale3(cls, scale3 if scale3 is not None else
                              (1.0 if scale is None else scale))
        self._hull = None

    def source(self):
        """The MeshSource (a path or an in-memory mesh)."""
        return self._source

    def filename(self):
        """The (absolute) path of a path-sourced mesh; RuntimeError for an in-memory one."""
        return str(self._source.path())

    def scale(self):
        """The uniform scale (float); RuntimeError if the scale is not uniform (use scale3)."""
        if not np.all(self._scale == self._scale[0]):
            raise RuntimeError(f"{type(self).__name__}.scale: the scale {self._scale.tolist()} "
                               f"is not uniform; use scale3()")
        return float(self._scale[0])

    def scale3(self):
        """Scale factors (3,) applied to the mesh's vertices."""
        return self._scale.copy()

    def extension(self):
        """The mesh data's file type, lowercase (``".obj"``)."""
        return self._source.extension()

    def convex_hull_vertices(self):
        """Vertices (n, 3) of the convex hull of the scaled mesh, in the geometry frame."""
        if self._hull is None:
            from .proximity.mesh_loading import load_convex_hull_vertices
            self._hull = load_convex_hull_vertices(self._source, self._scale)
        return self._hull

    def get_convex_hull(self):
        """The convex hull of the scaled mesh as a PolygonSurfaceMesh (triangular faces,
        outward normals)."""
        from .proximity.mesh_loading import convex_hull_mesh
        return convex_hull_mesh(self.convex_hull_vertices())

    def kernel_params(self):
        return self.convex_hull_vertices().reshape(-1).copy()

    def _key(self):
        return (self._source._key(), tuple(self._scale.tolist()))

    def __getstate__(self):
        return {"_source": self._source, "_scale": self._scale, "_hull": None}

    def __repr__(self):
        if self._source.is_path():
            data = f"filename={self._source.description()!r}"
        else:
            data = f"mesh_data={self._source.in_memory()!r}"
        return f"{type(self).__name__}({data}, scale3={self._scale.tolist()})"


class Mesh(_MeshBase):
    """A triangle mesh (obj, stl, ply, ...) from `filename` (or `mesh_data` / `source`),
    scaled by `scale` (a number) or `scale3` (3 numbers).

    As in Drake, point-contact proximity queries use the mesh's convex hull.
    """


class Convex(_MeshBase):
    """The convex hull of a mesh from `filename` (or `mesh_data` / `source`), or of
    `points` (3, N), scaled by `scale` or `scale3`.

    ``Convex(points=P, label="name")`` stores the points as an in-memory .obj named
    `label`, as Drake does.
    """

    def __init__(self, filename=None, scale=None, *, scale3=None, mesh_data=None, source=None,
                 points=None, label=""):
        if points is not None:
            P = np.asarray(points, dtype=float)
            if P.ndim != 2 or P.shape[0] != 3 or P.shape[1] < 4:
                raise ValueError(f"Convex: points must have shape (3, N) with N >= 4, got "
                                 f"{P.shape}")
            text = "".join("v " + " ".join(f"{x:.17g}" for x in col) + "\n" for col in P.T)
            mesh_data = InMemoryMesh(MemoryFile(text, ".obj", str(label)))
        super().__init__(filename, scale, scale3=scale3, mesh_data=mesh_data, source=source)
