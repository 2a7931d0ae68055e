"""multibody.planning: task-level tools built on the plant: pick-and-place joint
waypoints by successive inverse kinematics, the zero-moment point and the support polygon
of legged robots, and energy-optimal cubic joint trajectories."""

from merganser.multibody.planning.energy_optimal import (
    EnergyOptimalTrajectoryResult,
    calc_trajectory_effort,
    make_straight_line_cubic_trajectory,
    solve_energy_optimal_cubic_trajectory,
)
from merganser.multibody.planning.pick_and_place import (
    CartesianWaypoint,
    JointWaypoints,
    make_pick_and_place_waypoints,
    plan_pick_and_place,
    solve_waypoints_ik,
)
from merganser.multibody.planning.support_polygon import SupportPolygon, is_in_support_polygon
from merganser.multibody.planning.zmp import (
    calc_ground_reaction_wrench,
    calc_zero_moment_point,
    calc_zero_moment_point_from_contact_forces,
)

__all__ = [
    "CartesianWaypoint",
    "EnergyOptimalTrajectoryResult",
    "JointWaypoints",
    "SupportPolygon",
    "calc_ground_reaction_wrench",
    "calc_trajectory_effort",
    "calc_zero_moment_point",
    "calc_zero_moment_point_from_contact_forces",
    "is_in_support_polygon",
    "make_pick_and_place_waypoints",
    "make_straight_line_cubic_trajectory",
    "plan_pick_and_place",
    "solve_energy_optimal_cubic_trajectory",
    "solve_waypoints_ik",
]
