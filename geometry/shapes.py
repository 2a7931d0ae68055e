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
==============  ==========================================================================

Each shape has a ``type_code`` and ``kernel_params()`` (a float64 array) read by the
compiled proximity kernels (`geometry.proximity.shape_codes`).
"""

import copy
import math
import os

import numpy as np

__all__ = ["Shape", "Sphere", "Box", "Cylinder", "Capsule", "Ellipsoid", "HalfSpace", "Mesh",
           "Convex"]

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
    """A sphere of `radius` (m) centred at the origin of its frame."""

    type_code = SPHERE

    def __init__(self, radius):
        self._r = _positive("Sphere", "radius", radius)

    def radius(self):
        return self._r

    def kernel_params(self):
        return np.array([self._r])

    def __repr__(self):
        return f"Sphere(radius={self._r})"


class Box(Shape):
    """A box of `width` (x), `depth` (y) and `height` (z) (m) centred at its frame origin;
    ``Box(measures)`` takes the three as one vector (Drake's overload)."""

    type_code = BOX

    def __init__(self, width, depth=None, height=None):
        if depth is None and height is None and np.ndim(width) == 1:
            if np.shape(width) != (3,):
                raise ValueError(f"Box: measures must be [width, depth, height], got {width!r}")
            width, depth, height = (float(x) for x in width)
        elif depth is None or height is None:
            raise TypeError(f"Box: give width, depth and height, or one vector of the three; "
                            f"got width={width!r}, depth={depth!r}, height={height!r}")
        self._size = np.array([_positive("Box", "width", width), _positive("Box", "depth", depth),
                               _positive("Box", "height", height)])

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
        return f"Box(width={self.width()}, depth={self.depth()}, height={self.height()})"


class _RadiusLength(Shape):
    """A shape given by `radius` and `length` (m) along the z axis of its frame, centred;
    kernel parameters [radius, length / 2]."""

    def __init__(self, radius, length):
        name = type(self).__name__
        self._r = _positive(name, "radius", radius)
        self._l = _positive(name, "length", length)

    def radius(self):
        return self._r

    def length(self):
        return self._l

    def kernel_params(self):
        return np.array([self._r, 0.5 * self._l])

    def __repr__(self):
        return f"{type(self).__name__}(radius={self._r}, length={self._l})"


class Cylinder(_RadiusLength):
    """A cylinder of `radius` and `length` (m) along the z axis of its frame, centred."""

    type_code = CYLINDER


class Capsule(_RadiusLength):
    """A capsule: the points within `radius` of a segment of `length` along z (centred)."""

    type_code = CAPSULE


class Ellipsoid(Shape):
    """An ellipsoid with semi-axes `a`, `b`, `c` (m) along x, y, z of its frame."""

    type_code = ELLIPSOID

    def __init__(self, a, b, c):
        self._abc = np.array([_positive("Ellipsoid", "a", a), _positive("Ellipsoid", "b", b),
                              _positive("Ellipsoid", "c", c)])

    def a(self):
        return float(self._abc[0])

    def b(self):
        return float(self._abc[1])

    def c(self):
        return float(self._abc[2])

    def kernel_params(self):
        return self._abc.copy()

    def __repr__(self):
        return f"Ellipsoid(a={self.a()}, b={self.b()}, c={self.c()})"


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


class _MeshBase(Shape):
    """A mesh file with a scale; vertices are loaded (through trimesh) on first use."""

    type_code = CONVEX

    def __init__(self, filename, scale=1.0):
        cls = type(self).__name__
        if not isinstance(filename, (str, os.PathLike)):
            raise TypeError(f"{cls}: filename must be a path, got {type(filename).__name__}")
        filename = os.fspath(filename)
        if not os.path.isfile(filename):
            raise ValueError(f"{cls}: filename {filename!r} does not exist")
        self._filename = filename
        self._scale = _scale3(cls, scale)
        self._hull = None

    def filename(self):
        return self._filename

    def scale(self):
        """Scale factors (3,) applied to the file's vertices."""
        return self._scale.copy()

    def extension(self):
        return os.path.splitext(self._filename)[1].lower()

    def convex_hull_vertices(self):
        """Vertices (n, 3) of the convex hull of the scaled mesh, in the geometry frame."""
        if self._hull is None:
            from .proximity.mesh_loading import load_convex_hull_vertices
            self._hull = load_convex_hull_vertices(self._filename, self._scale)
        return self._hull

    def kernel_params(self):
        return self.convex_hull_vertices().reshape(-1).copy()

    def _key(self):
        return (self._filename, tuple(self._scale.tolist()))

    def __repr__(self):
        return f"{type(self).__name__}({self._filename!r}, scale={self._scale.tolist()})"


class Mesh(_MeshBase):
    """A triangle mesh from `filename` (obj, stl, ply, ...), scaled by `scale`.

    As in Drake, point-contact proximity queries use the mesh's convex hull.
    """


class Convex(_MeshBase):
    """The convex hull of the mesh in `filename`, scaled by `scale`."""
