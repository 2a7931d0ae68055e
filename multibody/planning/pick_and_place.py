"""Pick and place: Cartesian waypoints turned into joint waypoints by successive IK.

`make_pick_and_place_waypoints` lists the end-effector targets of a pick-and-place
(above the object, grasp, lift, above the target, release, retreat);
`solve_waypoints_ik` solves inverse kinematics for each waypoint in turn, seeding each
solve with the previous solution so consecutive configurations stay close (no elbow
flips between waypoints); `JointWaypoints.make_trajectory` times them as a
stop-at-every-waypoint cubic trajectory.
"""

from dataclasses import dataclass, field

import numpy as np

from merganser.framework import PiecewisePolynomial
from merganser.geometry import RigidTransform
from merganser.multibody.inverse_kinematics import solve_ik_ccd, solve_ik_jacobian
from merganser.multibody.inverse_kinematics._arguments import as_vector, check_frame, check_plant

__all__ = ["CartesianWaypoint", "JointWaypoints", "make_pick_and_place_waypoints",
           "plan_pick_and_place", "solve_waypoints_ik"]

_SOLVERS = {"ccd": solve_ik_ccd, "jacobian": solve_ik_jacobian}


@dataclass
class CartesianWaypoint:
    """An end-effector target.

    Attributes
    ----------
    name : str
    target : ndarray (3,) or RigidTransform
        p_WQ (position of the effector point, world frame, m) or X_WT (full pose).
    gripper_closed : bool
        Gripper state to hold while at this waypoint.
    """

    name: str
    target: object
    gripper_closed: bool = False


@dataclass
class JointWaypoints:
    """Joint-space waypoints found by `solve_waypoints_ik`.

    Attributes
    ----------
    names : list[str]
    q : ndarray, shape (nq, N)
        Column i is the configuration of waypoint i.
    gripper_closed : list[bool]
    results : list[InverseKinematicsResult]
    success : bool
        Every waypoint reached.
    failed : list[str]
        Names of the waypoints that were not reached.
    """

    names: list
    q: np.ndarray
    gripper_closed: list
    results: list = field(repr=False)
    success: bool = True
    failed: list = field(default_factory=list)

    def make_trajectory(self, segment_duration=1.0, start_time=0.0, q_start=None):
        """Cubic trajectory (nq, 1) through the waypoints, at rest at each one.

        Parameters
        ----------
        segment_duration : float or array_like
            Duration (s) of every move, or one per move.
        start_time : float
        q_start : array_like (nq,), optional
            Configuration to start from (prepended as the first knot).
        """
        q = self.q if q_start is None else np.column_stack([q_start, self.q])
        moves = q.shape[1] - 1
        if moves < 1:
            raise ValueError("JointWaypoints.make_trajectory: needs at least two "
                             "configurations (pass q_start for a single waypoint)")
        durations = np.broadcast_to(np.asarray(segment_duration, dtype=np.float64),
                                    (moves,))
        if np.any(~(durations > 0.0)):
            raise ValueError(f"JointWaypoints.make_trajectory: segment_duration must be > 0, "
                             f"got {segment_duration!r}")
        breaks = start_time + np.concatenate([[0.0], np.cumsum(durations)])
        return PiecewisePolynomial.cubic_hermite(breaks, q, np.zeros_like(q))


def make_pick_and_place_waypoints(p_WO_pick, p_WO_place, *, approach_height=0.1,
                                  R_WE=None):
    """Cartesian waypoints of a pick and place along the world z axis.

    Parameters
    ----------
    p_WO_pick, p_WO_place : array_like, shape (3,)
        Grasp position of the effector point at the object and at its destination (m).
    approach_height : float
        Height above both positions of the approach, lift and retreat waypoints (m).
    R_WE : RotationMatrix, optional
        Effector orientation to hold at every waypoint (full pose targets); position
        targets only when omitted.

    Returns
    -------
    list[CartesianWaypoint]
        above_pick, grasp, lift, above_place, release, retreat.
    """
    fn = "make_pick_and_place_waypoints"
    pick = as_vector(fn, "p_WO_pick", p_WO_pick, 3)
    place = as_vector(fn, "p_WO_place", p_WO_place, 3)
    h = float(approach_height)
    if not h >= 0.0:
        raise ValueError(f"{fn}: approach_height must be >= 0, got {approach_height!r}")
    up = np.array([0.0, 0.0, h])

    def target(p):
        return p if R_WE is None else RigidTransform(R_WE, p)

    return [CartesianWaypoint("above_pick", target(pick + up), False),
            CartesianWaypoint("grasp", target(pick), True),
            CartesianWaypoint("lift", target(pick + up), True),
            CartesianWaypoint("above_place", target(place + up), True),
            CartesianWaypoint("release", target(place), False),
            CartesianWaypoint("retreat", target(place + up), False)]


def solve_waypoints_ik(plant, frame_E, waypoints, *, q_initial=None, context=None,
                       solver="jacobian", **solver_options):
    """Joint configurations reaching each waypoint, each IK seeded with the previous one.

    Parameters
    ----------
    plant : MultibodyPlant
    frame_E : Frame
        End-effector frame (use the solvers' ``p_EQ`` option for an offset point).
    waypoints : sequence of CartesianWaypoint (or of targets)
    q_initial : array_like (nq,), optional
        Seed of the first solve (default: the positions in `context`).
    context : Context, optional
    solver : {"jacobian", "ccd"} or callable
        `solve_ik_jacobian`, `solve_ik_ccd` (position targets only), or a function
        ``f(plant, frame_E, target, q_initial=..., context=..., **options)`` returning
        an InverseKinematicsResult.
    **solver_options
        Passed to the solver (tolerance, p_EQ, ...).

    Returns
    -------
    JointWaypoints
        An unreachable waypoint is reported in ``failed`` (its best configuration is
        kept and seeds the next solve).
    """
    fn = "solve_waypoints_ik"
    check_plant(fn, plant)
    check_frame(fn, "frame_E", frame_E)
    solve = _SOLVERS.get(solver, solver) if isinstance(solver, str) else solver
    if not callable(solve):
        raise ValueError(f"{fn}: solver must be one of {sorted(_SOLVERS)} or a callable, "
                         f"got {solver!r}")
    points = [w if isinstance(w, CartesianWaypoint) else CartesianWaypoint(f"waypoint{i}", w)
              for i, w in enumerate(waypoints)]
    if not points:
        raise ValueError(f"{fn}: waypoints is empty")
    if q_initial is None:
        ctx = plant.create_default_context() if context is None else context
        q = plant.get_positions(ctx)
    else:
        q = as_vector(fn, "q_initial", q_initial, plant.num_positions())
    results, columns = [], []
    for w in points:
        result = solve(plant, frame_E, w.target, q_initial=q, context=context,
                       **solver_options)
        results.append(result)
        q = result.q
        columns.append(q)
    failed = [w.name for w, r in zip(points, results) if not r.success]
    return JointWaypoints(names=[w.name for w in points], q=np.column_stack(columns),
                          gripper_closed=[w.gripper_closed for w in points],
                          results=results, success=not failed, failed=failed)


def plan_pick_and_place(plant, frame_E, p_WO_pick, p_WO_place, *, approach_height=0.1,
                        R_WE=None, q_initial=None, context=None, solver="jacobian",
                        **solver_options):
    """`make_pick_and_place_waypoints` followed by `solve_waypoints_ik`.

    Returns
    -------
    JointWaypoints
    """
    waypoints = make_pick_and_place_waypoints(p_WO_pick, p_WO_place,
                                              approach_height=approach_height, R_WE=R_WE)
    return solve_waypoints_ik(plant, frame_E, waypoints, q_initial=q_initial,
                              context=context, solver=solver, **solver_options)
