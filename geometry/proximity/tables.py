"""Flat tables of the proximity geometries of a SceneGraph model, and the engine that runs
the scene kernels over them.

`ProximityTables` is rebuilt whenever the model or the collision filter in force changes
(their versions): geometry i (in increasing GeometryId order) has type code
``gtype[i]``, parameters ``params[pstart[i]:pstart[i+1]]``, frame slot ``frame_slot[i]``
(its row in the world frame poses X_WF; slot 0 is the world) and pose ``X_FG[i]`` in its
frame; ``allowed[i, j]`` (i < j) is 1 when the pair may collide.

`ProximityEngine` owns the work arrays; its results are views into them, valid until the
engine's next query.
"""

import numpy as np

from .broad_phase import candidate_pairs, compute_aabbs, geometry_poses
from .scene import contact_point_query, distance_rows, penetration_rows, sort_pairs

__all__ = ["ProximityTables", "ProximityEngine"]


class ProximityTables:
    """Kernel tables of the proximity geometries (see the module docstring)."""

    def __init__(self, model, collision_filter, frame_slot_of):
        from ..inspector import Role
        ids = sorted(g for g, r in model.geometries.items() if Role.PROXIMITY in r.roles)
        self.ids = ids
        self.index_of = {g: i for i, g in enumerate(ids)}
        n = len(ids)
        self.n = n
        self.gtype = np.zeros(n, np.int64)
        self.frame_slot = np.zeros(n, np.int64)
        self.X_FG = np.zeros((n, 4, 4))
        chunks = []
        pstart = [0]
        for i, g in enumerate(ids):
            rec = model.geometries[g]
            self.gtype[i] = rec.shape.type_code
            self.frame_slot[i] = frame_slot_of[rec.frame_id]
            self.X_FG[i] = rec.X_FG
            p = np.asarray(rec.shape.kernel_params(), dtype=np.float64)
            chunks.append(p)
            pstart.append(pstart[-1] + p.size)
        self.pstart = np.array(pstart, np.int64)
        self.params = np.concatenate(chunks) if chunks else np.zeros(0)
        self.allowed = np.zeros((n, n), np.uint8)
        inactive = collision_filter.inactive    # deactivated geometries join no pair
        for i in range(n):
            for j in range(i + 1, n):
                if ids[i] in inactive or ids[j] in inactive:
                    continue
                if model.can_collide(ids[i], ids[j], collision_filter):
                    self.allowed[i, j] = 1


class ProximityEngine:
    """Runs the broad and narrow phase for one set of tables (work arrays reused)."""

    def __init__(self, tables):
        self.t = t = tables
        n = t.n
        self.X_WG = np.zeros((n, 4, 4))
        self.aabb = np.zeros((n, 6))
        self.order = np.arange(n, dtype=np.int64)
        self.pairs = np.zeros((max(16, 4 * n), 2), np.int64)
        self.rows = np.zeros((max(32, 8 * n), 10))
        self.out_pairs = np.zeros((self.rows.shape[0], 2), np.int64)
        self.npairs = 0
        #: The pose cache (`SceneGraph`'s, per Context) X_WG was last computed from
        self.posed_from = None

    def update_poses(self, X_WF):
        """Geometry poses from the frame poses X_WF (nslots, 4, 4)."""
        t = self.t
        geometry_poses(t.frame_slot, t.X_FG, X_WF, self.X_WG)

    def _broad_phase(self, margin):
        t = self.t
        compute_aabbs(t.gtype, t.pstart, t.params, self.X_WG, margin, self.aabb)
        while True:
            count = candidate_pairs(t.gtype, self.aabb, self.X_WG, t.allowed, self.order,
                                    self.pairs)
            if count <= self.pairs.shape[0]:
                break
            self.pairs = np.zeros((2 * count, 2), np.int64)
        sort_pairs(self.pairs, count)
        self.npairs = count
        return count

    def _ensure_rows(self, count):
        if self.rows.shape[0] < count:
            self.rows = np.zeros((2 * count, 10))
            self.out_pairs = np.zeros((2 * count, 2), np.int64)

    def penetration(self):
        """(rows, pairs) of penetrating pairs, one deepest point each."""
        t = self.t
        count = self._broad_phase(0.0)
        self._ensure_rows(count)
        k = penetration_rows(t.gtype, t.pstart, t.params, self.X_WG, self.pairs, count,
                             self.rows, self.out_pairs)
        return self.rows[:k], self.out_pairs[:k]

    def contact_points(self):
        """(rows, pairs) of point contacts, several per resting polyhedron (see
        `geometry.proximity.scene.contact_point_rows`)."""
        t = self.t
        while True:
            count, k = contact_point_query(t.gtype, t.pstart, t.params, self.X_WG, self.aabb,
                                           t.allowed, self.order, self.pairs, self.rows,
                                           self.out_pairs)
            self.npairs = count
            if k >= 0:
                return self.rows[:k], self.out_pairs[:k]
            if count > self.pairs.shape[0]:
                self.pairs = np.zeros((2 * count, 2), np.int64)
            else:
                self._ensure_rows(max(2 * self.rows.shape[0], 16 * count + 16))

    def signed_distance(self, max_distance):
        """(rows, pairs) of pairs with signed distance <= max_distance."""
        t = self.t
        margin = max_distance if np.isfinite(max_distance) else 1e30
        count = self._broad_phase(margin)
        self._ensure_rows(count)
        k = distance_rows(t.gtype, t.pstart, t.params, self.X_WG, self.pairs, count,
                          float(max_distance), self.rows, self.out_pairs)
        return self.rows[:k], self.out_pairs[:k]
