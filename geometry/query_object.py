"""QueryObject: proximity queries on the geometry poses of one SceneGraph Context.

SceneGraph's ``query`` output port gives a QueryObject bound to the Context it was
evaluated in; each query evaluates the current frame poses (from the sources' pose
inputs) and runs the broad and narrow phase (`geometry.proximity`).
"""

from dataclasses import dataclass, field

import numpy as np

from merganser.framework.keyword_check import lists_valid_keywords

from .bounding_box import Obb, calc_obb
from .geometry_instance import FrameId, GeometryId
from .proximity.narrow_phase import signed_distance_pair
from .proximity.support import SPHERE

__all__ = ["QueryObject", "PenetrationAsPointPair", "SignedDistancePair",
           "SignedDistanceToPoint"]


def _zeros3():
    return np.zeros(3)


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

    ``PenetrationAsPointPair()`` is Drake's default: invalid ids (``GeometryId()``), zero
    vectors, depth -1.
    """

    id_A: GeometryId = field(default_factory=GeometryId)
    id_B: GeometryId = field(default_factory=GeometryId)
    p_WCa: np.ndarray = field(default_factory=_zeros3)
    p_WCb: np.ndarray = field(default_factory=_zeros3)
    nhat_BA_W: np.ndarray = field(default_factory=_zeros3)
    depth: float = -1.0


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

    ``SignedDistancePair()`` is Drake's default: invalid ids (``GeometryId()``), zero
    vectors and distance.
    """

    id_A: GeometryId = field(default_factory=GeometryId)
    id_B: GeometryId = field(default_factory=GeometryId)
    p_ACa: np.ndarray = field(default_factory=_zeros3)
    p_BCb: np.ndarray = field(default_factory=_zeros3)
    distance: float = 0.0
    nhat_BA_W: np.ndarray = field(default_factory=_zeros3)


@dataclass(frozen=True, eq=False)
class SignedDistanceToPoint:
    """Signed distance from a query point Q to a geometry G (Drake's SignedDistanceToPoint).

    Attributes
    ----------
    id_G : GeometryId
    p_GN : ndarray (3,)
        The point N of G's surface nearest to Q, expressed in G's frame.
    distance : float
        Signed distance (m) from Q to G; negative when Q is inside G.
    grad_W : ndarray (3,)
        Gradient of the distance with respect to p_WQ, in world (unit length).
    """

    id_G: GeometryId = field(default_factory=GeometryId)
    p_GN: np.ndarray = field(default_factory=_zeros3)
    distance: float = 0.0
    grad_W: np.ndarray = field(default_factory=_zeros3)


def _in_frame(X_WG, p_W):
    return X_WG[:3, :3].T @ (p_W - X_WG[:3, 3])


class QueryObject:
    """Proximity queries bound to a SceneGraph and one of its Contexts.

    ``QueryObject()`` (Drake's default) is bound to nothing: every query raises
    RuntimeError; SceneGraph's ``query`` output gives bound ones.
    """

    @lists_valid_keywords
    def __init__(self, scene_graph=None, context=None):
        if (scene_graph is None) != (context is None):
            raise TypeError("QueryObject: give both scene_graph and context, or neither")
        self._sg = scene_graph
        self._ctx = context

    def _bound(self, fn):
        if self._sg is None:
            raise RuntimeError(f"QueryObject.{fn}: this QueryObject is not bound to a "
                               f"SceneGraph context (a default-constructed QueryObject); "
                               f"use the one from SceneGraph's query output port")
        return self._sg

    def inspector(self):
        """The SceneGraphInspector of the model (with the Context's collision filter)."""
        return self._bound("inspector")._inspector_for(self._ctx)

    def _prepare(self, fn="query"):
        """The ProximityEngine for the current poses."""
        return self._bound(fn)._eval_proximity(self._ctx)

    def find_collision_candidates(self):
        """Pairs (id_A, id_B), id_A < id_B, of unfiltered proximity geometries whose
        bounding boxes overlap (the broad phase; they may or may not touch).

        Returns
        -------
        list of tuple(GeometryId, GeometryId)
        """
        engine = self._prepare("find_collision_candidates")
        count = engine._broad_phase(0.0)
        ids = engine.t.ids
        pairs = sorted(tuple(sorted((ids[i], ids[j]))) for i, j in engine.pairs[:count])
        return pairs

    def compute_signed_distance_to_point(self, p_WQ, threshold=np.inf):
        """The signed distance from point Q to every proximity geometry within
        `threshold` (m).

        Parameters
        ----------
        p_WQ : array_like, shape (3,)
            The query point, in world.
        threshold : float
            Geometries farther than this are left out (default: none).

        Returns
        -------
        list of SignedDistanceToPoint
            Sorted by geometry id.
        """
        fn = "compute_signed_distance_to_point"
        p = np.asarray(p_WQ, dtype=np.float64).reshape(-1)
        if p.shape != (3,) or not np.all(np.isfinite(p)):
            raise ValueError(f"QueryObject.{fn}: p_WQ must be a finite 3-vector, got {p_WQ!r}")
        try:
            threshold = float(threshold)
        except (TypeError, ValueError):
            raise TypeError(f"QueryObject.{fn}: threshold must be a number, got "
                            f"{type(threshold).__name__}") from None
        engine = self._prepare(fn)
        t = engine.t
        X_WQ = np.eye(4)
        X_WQ[:3, 3] = p
        point = np.zeros(1)                     # Q as a sphere of radius 0
        out = np.zeros(10)
        results = []
        for i in range(len(t.ids)):
            signed_distance_pair(t.gtype[i], t.params[t.pstart[i]:t.pstart[i + 1]],
                                 engine.X_WG[i], SPHERE, point, X_WQ, out)
            if out[9] <= threshold:
                results.append(SignedDistanceToPoint(
                    t.ids[i], _in_frame(engine.X_WG[i], out[0:3]), float(out[9]),
                    -out[6:9].copy()))
        results.sort(key=lambda r: r.id_G)
        return results

    def compute_point_pair_penetration(self):
        """Every penetrating, unfiltered pair of proximity geometries, one point pair each.

        Returns
        -------
        list of PenetrationAsPointPair
            Sorted by (id_A, id_B), with id_A < id_B.
        """
        engine = self._prepare("compute_point_pair_penetration")
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
        engine = self._prepare("compute_signed_distance_pairwise_closest_points")
        rows, pairs = engine.signed_distance(max_distance)
        ids = engine.t.ids
        X = engine.X_WG
        return [SignedDistancePair(ids[i], ids[j], _in_frame(X[i], r[0:3]),
                                   _in_frame(X[j], r[3:6]), float(r[9]), r[6:9].copy())
                for r, (i, j) in zip(rows, pairs)]

    def compute_signed_distance_pair_closest_points(self, geometry_id_A, geometry_id_B):
        """The SignedDistancePair of two given geometries (filters ignored)."""
        id_A, id_B = geometry_id_A, geometry_id_B
        engine = self._prepare("compute_signed_distance_pair_closest_points")
        t = engine.t
        for arg, g in (("geometry_id_A", id_A), ("geometry_id_B", id_B)):
            if g not in t.index_of:
                raise ValueError(f"compute_signed_distance_pair_closest_points: {arg} {g!r} is "
                                 f"not a geometry with the proximity role")
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
        rows, _ = self._prepare("has_collisions").penetration()
        return rows.shape[0] > 0

    def compute_contact_surfaces(self, representation=None):
        """Hydroelastic contact surfaces of every unfiltered candidate pair (strict: a
        pair without hydroelastic support raises, naming both geometries; see
        `geometry.hydroelastic.contact_surfaces`).

        Parameters
        ----------
        representation : HydroelasticContactRepresentation, optional
            kPolygon (the default) or kTriangle (each polygon split around its centroid).

        Returns
        -------
        list of geometry.hydroelastic.ContactSurface
            Sorted by (id_M, id_N), id_M < id_N.
        """
        surfaces = self._hydroelastic(strict=True).surfaces
        return _represented(surfaces, representation, "compute_contact_surfaces")

    def compute_contact_surfaces_with_fallback(self, representation=None):
        """Hydroelastic surfaces where both geometries support it, point pairs for the
        other colliding pairs (Drake's ComputeContactSurfacesWithFallback).

        Returns
        -------
        (list of ContactSurface, list of PenetrationAsPointPair)
            The surfaces in `representation` (as `compute_contact_surfaces`); the point
            pairs of the pairs not handled hydroelastically.
        """
        res = self._hydroelastic(strict=False)
        handled = {frozenset((res.ids[i], res.ids[j])) for i, j in res.hydroelastic_pairs}
        pairs = [p for p in self.compute_point_pair_penetration()
                 if frozenset((p.id_A, p.id_B)) not in handled]
        return (_represented(res.surfaces, representation,
                             "compute_contact_surfaces_with_fallback"), pairs)

    def _hydroelastic(self, strict):
        """The HydroelasticQueryResult of the current poses (`strict` as in
        `geometry.hydroelastic.compute_hydroelastic`)."""
        from .hydroelastic import compute_hydroelastic
        engine = self._prepare("compute_contact_surfaces")
        return compute_hydroelastic(engine, self.inspector, strict)

    def get_pose_in_world(self, geometry_id=None, frame_id=None):
        """X_WG (RigidTransform) of a geometry (its frame's pose composed with its pose in
        the frame), or X_WF of a frame: ``get_pose_in_world(frame_id=f)`` (a FrameId given
        positionally is taken as a frame)."""
        if isinstance(geometry_id, FrameId) and frame_id is None:
            geometry_id, frame_id = None, geometry_id
        if (geometry_id is None) == (frame_id is None):
            raise TypeError(f"QueryObject.get_pose_in_world: give exactly one of geometry_id "
                            f"and frame_id, got geometry_id={geometry_id!r}, "
                            f"frame_id={frame_id!r}")
        sg = self._bound("get_pose_in_world")
        if frame_id is not None:
            return sg._frame_pose(self._ctx, frame_id, "get_pose_in_world")
        return sg._geometry_pose_in_world(self._ctx, geometry_id)

    def get_pose_in_parent(self, frame_id):
        """X_PF (RigidTransform) of a frame in its parent frame (X_WF for a frame whose
        parent is the world)."""
        return self._bound("get_pose_in_parent")._frame_pose(
            self._ctx, frame_id, "get_pose_in_parent", in_parent=True)

    def compute_obb_in_world(self, geometry_id):
        """The oriented bounding box of a geometry in W (an Obb: the geometry's
        `calc_obb` box posed by X_WG), or None for a HalfSpace."""
        obb_G = calc_obb(self.inspector().get_shape(geometry_id))
        if obb_G is None:
            return None
        X_WG = self.get_pose_in_world(geometry_id=geometry_id)
        return Obb(X_WG @ obb_G.pose(), obb_G.half_width())

    def compute_aabb_in_world(self, geometry_id):
        """The axis-aligned bounding box of a deformable geometry in W, as Drake's; every
        geometry here is rigid, for which Drake (and this) returns None. The geometry
        must be registered (else the inspector raises)."""
        self.inspector().get_shape(geometry_id)
        return None

    # ---- fast path for the plant ---------------------------------------------------------
    def _contact_point_arrays(self):
        """(ids, rows (k, 10), pairs (k, 2)) of the plant's point contacts; views valid
        until the next query (see `geometry.proximity.scene.contact_point_rows`)."""
        engine = self._sg._eval_proximity(self._ctx)
        rows, pairs = engine.contact_points()
        return engine.t.ids, rows, pairs

    def _proximity_tables(self):
        """The `geometry.proximity.tables.ProximityTables` of the model and collision filter
        this query sees (the batched plant runs the scene kernels over them)."""
        return self._prepare("_proximity_tables").t


def _represented(surfaces, representation, fn):
    """`surfaces` in `representation` (None: as computed, polygons)."""
    from .hydroelastic.contact_surface import HydroelasticContactRepresentation as Rep

    if representation is None or representation is Rep.kPolygon:
        return surfaces
    if representation is Rep.kTriangle:
        return [s.to_triangles() for s in surfaces]
    raise ValueError(f"QueryObject.{fn}: representation must be a "
                     f"HydroelasticContactRepresentation, got {representation!r}")
