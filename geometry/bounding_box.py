"""Bounding boxes (Drake's Aabb and Obb): a box's center and half widths in a hierarchy
frame H, aligned with H (Aabb) or with a rotated box frame B (Obb), the overlap tests
between boxes, half spaces and planes, and the boxes of meshes and shapes.

An overlap test of box `a` (posed in G) with box `b` (posed in H) takes X_GH, the pose of
H in G, and uses the separating-axis theorem (the 15 candidate axes of two boxes).
"""

import numpy as np

from .plane import Plane
from .rigid_transform import RigidTransform
from .rotation_matrix import RotationMatrix
from .shapes import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, Sphere

__all__ = ["Aabb", "Obb", "calc_obb", "compute_aabb_for_triangle_mesh",
           "compute_aabb_for_volume_mesh", "compute_obb_for_triangle_mesh",
           "compute_obb_for_volume_mesh"]

# Obb pads its half widths by max(eps * scale, this) against round-off (as Drake's Obb).
_OBB_TOLERANCE = 2e-14


def _half_width(half_width, fn):
    h = np.array(half_width, dtype=float).reshape(-1)
    if h.shape != (3,) or np.any(h < 0.0) or not np.all(np.isfinite(h)):
        raise ValueError(f"{fn}: half_width must be 3 finite non-negative numbers, got "
                         f"{half_width!r}")
    return h


def _boxes_overlap(R_GA, p_GA, h_A, R_GB, p_GB, h_B):
    """True unless one of the 15 separating axes of boxes A and B (all in G) separates
    them."""
    R = R_GA.T @ R_GB                       # B's axes in A
    t = R_GA.T @ (p_GB - p_GA)              # B's center in A
    absR = np.abs(R) + 1e-15                # keeps parallel edges from false negatives
    if np.any(np.abs(t) > h_A + absR @ h_B):
        return False
    if np.any(np.abs(R.T @ t) > absR.T @ h_A + h_B):
        return False
    for i in range(3):
        for j in range(3):
            i1, i2, j1, j2 = (i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3
            dist = abs(t[i2] * R[i1, j] - t[i1] * R[i2, j])
            ra = h_A[i1] * absR[i2, j] + h_A[i2] * absR[i1, j]
            rb = h_B[j1] * absR[i, j2] + h_B[j2] * absR[i, j1]
            if dist > ra + rb:
                return False
    return True


def _box_in(X, box):
    """(R, center, half width) of `box` re-expressed by the pose X."""
    X_B = X @ box.pose()
    return X_B.rotation().matrix(), X_B.translation(), box.half_width()


def _overlap(box, other, X_GH):
    """`box` (in G) against `other` (in H: a box, a HalfSpace or a Plane)."""
    X_GH = X_GH if isinstance(X_GH, RigidTransform) else RigidTransform(X_GH)
    R_a, p_a, h_a = _box_in(RigidTransform(), box)
    if isinstance(other, (Aabb, Obb)):
        return _boxes_overlap(R_a, p_a, h_a, *_box_in(X_GH, other))
    if isinstance(other, HalfSpace):
        # X_GH here is X_CH: the box's frame H posed in the half space's frame C (z <= 0)
        R, p = X_GH.rotation().matrix() @ R_a, X_GH @ p_a
        return bool(p[2] - np.abs(R[2]) @ h_a <= 0.0)
    if isinstance(other, Plane):
        # X_GH here is X_PH: the box's frame H posed in the plane's frame P
        R, p = X_GH.rotation().matrix() @ R_a, X_GH @ p_a
        return other.box_overlaps(h_a, p, RotationMatrix(R))
    raise TypeError(f"{type(box).__name__}.has_overlap: expected an Aabb, Obb, HalfSpace or "
                    f"Plane, got {type(other).__name__}")


class _BoundingBox:
    """What Aabb and Obb share: center, half widths, pose, volume, overlap tests."""

    def center(self):
        """The box's center in H, ndarray (3,)."""
        return self._pose.translation()

    def half_width(self):
        """Half of the box's extent along each of its axes, ndarray (3,)."""
        return self._half_width.copy()

    def pose(self):
        """X_HB, the pose of the box's frame B in H (RigidTransform)."""
        return self._pose

    def calc_volume(self):
        """The box's volume, 8 hx hy hz."""
        return float(8.0 * np.prod(self._half_width))

    has_overlap = staticmethod(_overlap)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class Aabb(_BoundingBox):
    """An axis-aligned box in frame H.

    Parameters
    ----------
    p_HoBo : array_like (3,)
        The box's center in H (m).
    half_width : array_like (3,)
        Half of the box's extent along Hx, Hy, Hz (m, >= 0).

    Notes
    -----
    ``Aabb.has_overlap(a, b, X_GH)`` tests `a` (in G) against `b` in H: another Aabb or an
    Obb; ``has_overlap(a, half_space, X_CH)`` and ``has_overlap(a, plane, X_PH)`` pose
    the box's frame in the half space's (z <= 0) or the plane's frame.
    """

    def __init__(self, p_HoBo, half_width):
        self._half_width = _half_width(half_width, "Aabb")
        self._pose = RigidTransform(p=np.array(p_HoBo, dtype=float).reshape(3))

    def lower(self):
        """The box's lowest corner in H, center - half_width."""
        return self.center() - self._half_width

    def upper(self):
        """The box's highest corner in H, center + half_width."""
        return self.center() + self._half_width

    def equal(self, other):
        """True if `other` is an Aabb with exactly the same center and half widths."""
        return (isinstance(other, Aabb) and np.array_equal(self.center(), other.center())
                and np.array_equal(self._half_width, other._half_width))

    def __reduce__(self):
        return (Aabb, (self.center(), self._half_width))

    def __repr__(self):
        return f"Aabb(p_HoBo={self.center().tolist()}, half_width={self._half_width.tolist()})"


class Obb(_BoundingBox):
    """An oriented box: frame B posed in H, extents along Bx, By, Bz.

    Parameters
    ----------
    X_HB : RigidTransform
        The box frame's pose in H (its origin is the center).
    half_width : array_like (3,)
        Half extents along Bx, By, Bz (m, >= 0); padded by max(eps * scale, 2e-14) for
        round-off, as Drake's Obb (scale: the largest of the center's coordinates and the
        half widths).
    """

    def __init__(self, X_HB, half_width):
        h = _half_width(half_width, "Obb")
        self._pose = X_HB if isinstance(X_HB, RigidTransform) else RigidTransform(X_HB)
        scale = max(np.abs(self._pose.translation()).max(), h.max())
        self._half_width = h + max(scale * np.finfo(float).eps, _OBB_TOLERANCE)

    def equal(self, other):
        """True if `other` is an Obb with exactly the same pose and half widths."""
        return (isinstance(other, Obb)
                and np.array_equal(self._pose.get_as_matrix4(), other._pose.get_as_matrix4())
                and np.array_equal(self._half_width, other._half_width))

    def __reduce__(self):
        return (_obb_unpadded, (self._pose, self._half_width))

    def __repr__(self):
        return f"Obb(X_HB={self._pose!r}, half_width={self._half_width.tolist()})"


def _obb_unpadded(X_HB, half_width):
    """An Obb with exactly these (already padded) half widths (unpickling)."""
    out = Obb.__new__(Obb)
    out._pose, out._half_width = X_HB, np.array(half_width, dtype=float)
    return out


def _points(mesh_M, vertices, fn):
    if not vertices:
        raise ValueError(f"{fn}: vertices must name at least one vertex, got {vertices!r}")
    if hasattr(mesh_M, "vertex"):
        return np.array([mesh_M.vertex(int(v)) for v in vertices], dtype=float)
    return np.asarray(mesh_M.vertices_G, dtype=float)[sorted(int(v) for v in vertices)]


def _aabb_of(P):
    lo, hi = P.min(axis=0), P.max(axis=0)
    return Aabb(0.5 * (lo + hi), 0.5 * (hi - lo))


def _obb_of(P):
    """The box along the principal axes of the points P (n, 3) (no further fitting:
    it can be larger than the smallest box)."""
    cov = np.cov(P.T, bias=True) if len(P) > 1 else np.zeros((3, 3))
    _, axes = np.linalg.eigh(cov)
    axes = axes[:, ::-1]                               # the widest spread first
    if np.linalg.det(axes) < 0.0:
        axes[:, 2] = -axes[:, 2]
    Q = P @ axes
    lo, hi = Q.min(axis=0), Q.max(axis=0)
    return Obb(RigidTransform(RotationMatrix(axes), axes @ (0.5 * (lo + hi))), 0.5 * (hi - lo))


def compute_aabb_for_triangle_mesh(mesh_M, vertices):
    """The Aabb (in M) of the given vertex indices of a TriangleSurfaceMesh."""
    return _aabb_of(_points(mesh_M, vertices, "compute_aabb_for_triangle_mesh"))


def compute_aabb_for_volume_mesh(mesh_M, vertices):
    """The Aabb (in M) of the given vertex indices of a volume mesh."""
    return _aabb_of(_points(mesh_M, vertices, "compute_aabb_for_volume_mesh"))


def compute_obb_for_triangle_mesh(mesh_M, vertices):
    """An Obb (in M) along the principal axes of the given vertices of a triangle mesh."""
    return _obb_of(_points(mesh_M, vertices, "compute_obb_for_triangle_mesh"))


def compute_obb_for_volume_mesh(mesh_M, vertices):
    """An Obb (in M) along the principal axes of the given vertices of a volume mesh."""
    return _obb_of(_points(mesh_M, vertices, "compute_obb_for_volume_mesh"))


def calc_obb(shape):
    """The Obb of a shape in its geometry frame G, or None for a HalfSpace.

    Primitives get their exact box (Box: size/2; Sphere: r; Cylinder: r, r, L/2; Capsule:
    r, r, L/2 + r; Ellipsoid: a, b, c) about G's origin along G's axes; a Mesh or Convex
    the principal-axes box of its file's vertices (scaled).
    """
    if isinstance(shape, HalfSpace):
        return None
    if isinstance(shape, Box):
        h = 0.5 * np.asarray(shape.size(), dtype=float)
    elif isinstance(shape, Sphere):
        h = np.full(3, shape.radius())
    elif isinstance(shape, Cylinder):
        h = np.array([shape.radius(), shape.radius(), 0.5 * shape.length()])
    elif isinstance(shape, Capsule):
        h = np.array([shape.radius(), shape.radius(), 0.5 * shape.length() + shape.radius()])
    elif isinstance(shape, Ellipsoid):
        h = np.array([shape.a(), shape.b(), shape.c()])
    elif isinstance(shape, (Mesh, Convex)):
        return _obb_of(np.asarray(shape.convex_hull_vertices(),
                                  dtype=float))
    else:
        raise TypeError(f"calc_obb: expected a Shape, got {type(shape).__name__}")
    return Obb(RigidTransform(), h)
