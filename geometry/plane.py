"""Plane: the plane through a point with a normal, and its signed height function
(Drake's ``Plane``)."""

import numpy as np

__all__ = ["Plane"]


class Plane:
    """The plane {x : n·(x - p) = 0} in some frame P.

    Parameters
    ----------
    normal : array_like (3,)
        A normal of the plane (normalized here unless `already_normalized`).
    point_on_plane : array_like (3,)
        A point on the plane (m).
    already_normalized : bool
        Skip the normalization (the caller vouches for |normal| = 1).

    Raises
    ------
    ValueError
        If the normal has a magnitude below 1e-10.
    """

    def __init__(self, normal, point_on_plane, already_normalized=False):
        n = np.array(normal, dtype=float).reshape(3)
        if not already_normalized:
            magnitude = np.linalg.norm(n)
            if magnitude < 1e-10:
                raise ValueError(f"Plane: normal must have a magnitude of at least 1e-10, "
                                 f"got {normal!r} (|n| = {magnitude:g})")
            n = n / magnitude
        self._n = n
        self._p = np.array(point_on_plane, dtype=float).reshape(3)

    def unit_normal(self):
        """The unit normal, ndarray (3,)."""
        return self._n.copy()

    def reference_point(self):
        """The point the plane was defined through, ndarray (3,)."""
        return self._p.copy()

    def calc_height(self, point):
        """The signed distance of `point` (3,) from the plane along the normal (m)."""
        return float(self._n @ (np.asarray(point, dtype=float).reshape(3) - self._p))

    def box_overlaps(self, half_width, box_center_in_plane, box_orientation_in_plane):
        """True if the box (half widths (3,), center and orientation in the plane's
        frame) meets the plane: its center's |height| is at most the box's half extent
        along the normal."""
        R = box_orientation_in_plane
        R = np.asarray(R.matrix() if hasattr(R, "matrix") else R, dtype=float)
        reach = np.abs(self._n @ R) @ np.asarray(half_width, dtype=float).reshape(3)
        return bool(abs(self.calc_height(box_center_in_plane)) <= reach)

    def __reduce__(self):
        return (Plane, (self._n, self._p, True))

    def __repr__(self):
        return f"Plane(normal={self._n.tolist()}, point_on_plane={self._p.tolist()})"
