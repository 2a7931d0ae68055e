"""SupportPolygon: the convex hull of the ground contact points, seen from above.

A legged robot's zero-moment point must stay in the support polygon, the convex hull of
its contact points projected on the horizontal plane; the signed distance from the ZMP to
the polygon's boundary (positive inside) is its stability margin. Contact points of a
planar robot are collinear: the polygon is then a segment and the margin is measured
along it (a single point gives a degenerate polygon whose margin is minus the distance).
"""

import numpy as np

__all__ = ["SupportPolygon", "is_in_support_polygon"]


def _cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _convex_hull(points, eps):
    """Counterclockwise hull vertices (k, 2) of points (n, 2), collinear points dropped
    (Andrew's monotone chain)."""
    pts = sorted(set(map(tuple, points)))
    if len(pts) <= 2:
        return np.array(pts)
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= eps:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= eps:
            upper.pop()
        upper.append(p)
    hull = lower[:-1] + upper[:-1]
    return np.array(hull)


def _planar_points(fn, arg, value):
    try:
        a = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {arg} must be an array of numbers, got "
                        f"{type(value).__name__}") from None
    if a.ndim == 1:
        a = a.reshape(-1, 1)
    if a.ndim != 2 or a.shape[0] not in (2, 3) or a.shape[1] < 1:
        raise ValueError(f"{fn}: {arg} has shape {a.shape}, expected (3, n) or (2, n) "
                         f"with n >= 1")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{fn}: {arg} must be finite")
    return a[:2].T


class SupportPolygon:
    """Convex hull of contact points projected on the world x-y plane.

    Parameters
    ----------
    p_WCi : array_like, shape (3, n) or (2, n)
        Contact points in the world frame (m); z is ignored.
    """

    def __init__(self, p_WCi):
        fn = "SupportPolygon"
        pts = _planar_points(fn, "p_WCi", p_WCi)
        scale = max(1.0, float(np.abs(pts).max()))
        hull = _convex_hull(pts, 1e-12 * scale**2)
        if len(hull) >= 3:
            self._vertices = hull
        else:
            # Collinear points: keep the two extreme ones along their line.
            direction = pts[np.argmax(np.linalg.norm(pts - pts[0], axis=1))] - pts[0]
            if np.linalg.norm(direction) == 0.0:
                self._vertices = pts[:1].copy()
            else:
                s = pts @ direction
                self._vertices = np.array([pts[np.argmin(s)], pts[np.argmax(s)]])

    def vertices(self):
        """Vertices (2, k), counterclockwise (k = 1 or 2 for degenerate polygons)."""
        return self._vertices.T.copy()

    def is_degenerate(self):
        """True when the polygon is a point or a segment (collinear contacts)."""
        return len(self._vertices) < 3

    def margin(self, p_W):
        """Signed distance (m) from p_W's x-y projection to the boundary, positive inside.

        For a segment, the distance along it to the nearer end when the point is on its
        line (positive between the ends), else minus the distance to the segment.
        """
        p = _planar_points("SupportPolygon.margin", "p_W", p_W)[0]
        V = self._vertices
        if len(V) == 1:
            return -float(np.linalg.norm(p - V[0]))
        if len(V) == 2:
            d = V[1] - V[0]
            length = np.linalg.norm(d)
            u = d / length
            s = (p - V[0]) @ u
            off_line = abs(_cross(V[0], V[1], p)) / length
            if off_line <= 1e-9 * max(1.0, length) and 0.0 <= s <= length:
                return float(min(s, length - s))
            closest = V[0] + min(length, max(0.0, s)) * u
            return -float(np.linalg.norm(p - closest))
        signed, to_edges = [], []
        for a, b in zip(V, np.roll(V, -1, axis=0)):
            edge = b - a
            length = np.linalg.norm(edge)
            signed.append(_cross(a, b, p) / length)      # > 0 on the inner (left) side
            t = min(length, max(0.0, (p - a) @ edge / length))
            to_edges.append(np.linalg.norm(p - (a + t * edge / length)))
        if min(signed) >= 0.0:
            return float(min(signed))
        return -float(min(to_edges))

    def contains(self, p_W, tolerance=1e-9):
        """True when p_W's x-y projection is in the polygon (margin >= -tolerance)."""
        return self.margin(p_W) >= -float(tolerance)


def is_in_support_polygon(p_WZ, p_WCi, tolerance=1e-9):
    """True when point p_WZ (e.g. the ZMP) lies in the support polygon of contact points
    p_WCi (3, n), within `tolerance` (m)."""
    return SupportPolygon(p_WCi).contains(p_WZ, tolerance)
