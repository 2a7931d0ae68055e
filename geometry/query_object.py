"""QueryObject: proximity queries on the geometry poses of one SceneGraph Context.

SceneGraph's ``query`` output port gives a QueryObject bound to the Context it was
evaluated in; each query evaluates the current frame poses (from the sources' pose
inputs) and runs the broad and narrow phase (`geometry.proximity`).
"""

from dataclasses import dataclass

import numpy as np

__all__ = ["QueryObject", "PenetrationAsPointPair", "SignedDistancePair"]


@dataclass(frozen=True, eq=False)
class PenetrationAsPointPair:
    """A penetrating pair (Drake's PenetrationAsPointPair), id_A < id_B.

    Attributes
    ----------
    id_A, id_B : GeometryId
    p_WCa : ndarray (3,)
        The point of A deepest inside B, in world (m).
    p_WCb : ndarray (3,)
        The point of B deepest inside A, in world (m).
    nhat_BA_W : ndarray (3,)
        Unit normal from B towards A (moving A along it separates the pair), in world.
    depth : float
        Penetration depth (m) > 0: ``p_WCb = p_WCa + depth * nhat_BA_W``.
    """

    id_A: object
    id_B: object
    p_WCa: np.ndarray
    p_WCb: np.ndarray
    nhat_BA_W: np.ndarray
    depth: float


@dataclass(frozen=True, eq=False)
class SignedDistancePair:
    """Signed distance of a pair (Drake's SignedDistancePair), id_A < id_B.

    Attributes
    ----------
    id_A, id_B : GeometryId
    p_ACa : ndarray (3,)
        Witness point on A, expressed in A's geometry frame.
    p_BCb : ndarray (3,)
        Witness point on B, expressed in B's geometry frame.
    distance : float
        Signed distance (m); negative when the pair penetrates.
    nhat_BA_W : ndarray (3,)
        Unit direction of steepest increase of the distance when A moves, in world.
    """

    id_A: object
    id_B: object
    p_ACa: np.ndarray
    p_BCb: np.ndarray
    distance: float
    nhat_BA_W: np.ndarray


def _in_frame(X_WG, p_W):
    return X_WG[:3, :3].T @ (p_W - X_WG[:3, 3])


class QueryObject:
    """Proximity queries bound to a SceneGraph and one of its Contexts."""

    def __init__(self, scene_graph, context):
        self._sg = scene_graph
        self._ctx = context

    def inspector(self):
        """The SceneGraphInspector of the model (with the Context's collision filter)."""
        return self._sg._inspector_for(self._ctx)

    def _prepare(self):
        """(engine, X_WG) for the current poses."""
        return self._sg._eval_proximity(self._ctx)

    def compute_point_pair_penetration(self):
        """Every penetrating, unfiltered pair of proximity geometries, one point pair each.

        Returns
        -------
        list of PenetrationAsPointPair
            Sorted by (id_A, id_B), with id_A < id_B.
        """
        engine = self._prepare()
        rows, pairs = engine.penetration()
        ids = engine.t.ids
        return [PenetrationAsPointPair(ids[i], ids[j], r[0:3].copy(), r[3:6].copy(),
                                       r[6:9].copy(), float(-r[9]))
                for r, (i, j) in zip(rows, pairs)]

    def compute_signed_distance_pairwise_closest_points(self, max_distance=np.inf):
        """Signed distance of every unfiltered pair closer than `max_distance` (m).

        Returns
        -------
        list of SignedDistancePair
            Sorted by (id_A, id_B), with id_A < id_B.
        """
        try:
            max_distance = float(max_distance)
        except (TypeError, ValueError):
            raise TypeError(f"compute_signed_distance_pairwise_closest_points: max_distance "
                            f"must be a number, got {type(max_distance).__name__}") from None
        engine = self._prepare()
        rows, pairs = engine.signed_distance(max_distance)
        ids = engine.t.ids
        X = engine.X_WG
        return [SignedDistancePair(ids[i], ids[j], _in_frame(X[i], r[0:3]),
                                   _in_frame(X[j], r[3:6]), float(r[9]), r[6:9].copy())
                for r, (i, j) in zip(rows, pairs)]

    def compute_signed_distance_pair_closest_points(self, id_A, id_B):
        """The SignedDistancePair of two given geometries (filters ignored)."""
        engine = self._prepare()
        t = engine.t
        for arg, g in (("id_A", id_A), ("id_B", id_B)):
            if g not in t.index_of:
                raise ValueError(f"compute_signed_distance_pair_closest_points: {arg} {g!r} is "
                                 f"not a geometry with the proximity role")
        from .proximity.narrow_phase import signed_distance_pair
        i, j = t.index_of[id_A], t.index_of[id_B]
        out = np.zeros(10)
        ok = signed_distance_pair(t.gtype[i], t.params[t.pstart[i]:t.pstart[i + 1]],
                                  engine.X_WG[i], t.gtype[j],
                                  t.params[t.pstart[j]:t.pstart[j + 1]], engine.X_WG[j], out)
        if not ok:
            raise ValueError("compute_signed_distance_pair_closest_points: the signed distance "
                             "between two half spaces is not supported")
        return SignedDistancePair(id_A, id_B, _in_frame(engine.X_WG[i], out[0:3]),
                                  _in_frame(engine.X_WG[j], out[3:6]), float(out[9]),
                                  out[6:9].copy())

    def has_collisions(self):
        """True if some unfiltered pair penetrates."""
        rows, _ = self._prepare().penetration()
        return rows.shape[0] > 0

    def compute_contact_surfaces(self):
        """Hydroelastic contact surfaces of every unfiltered candidate pair (strict: a
        pair without hydroelastic support raises, naming both geometries; see
        `geometry.hydroelastic.contact_surfaces`).

        Returns
        -------
        list of geometry.hydroelastic.ContactSurface
            Sorted by (id_M, id_N), id_M < id_N.
        """
        return self._hydroelastic(strict=True).surfaces

    def _hydroelastic(self, strict):
        """The HydroelasticQueryResult of the current poses (`strict` as in
        `geometry.hydroelastic.compute_hydroelastic`)."""
        from .hydroelastic import compute_hydroelastic
        engine = self._prepare()
        return compute_hydroelastic(engine, self.inspector(), strict)

    def get_pose_in_world(self, geometry_id):
        """X_WG (RigidTransform) of a proximity geometry, or of any geometry's frame pose
        composed with its pose in frame."""
        return self._sg._geometry_pose_in_world(self._ctx, geometry_id)

    # ---- fast path for the plant ---------------------------------------------------------
    def _contact_point_arrays(self):
        """(ids, rows (k, 10), pairs (k, 2)) of the plant's point contacts; views valid
        until the next query (see `geometry.proximity.scene.contact_point_rows`)."""
        engine = self._sg._eval_proximity(self._ctx)
        rows, pairs = engine.contact_points()
        return engine.t.ids, rows, pairs
