"""multibody.planning: task-level tools built on the plant: pick-and-place joint
waypoints by successive inverse kinematics, the zero-moment point and the support polygon
of legged robots, and energy-optimal cubic joint trajectories."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".energy_optimal": (
        "EnergyOptimalTrajectoryResult", "calc_trajectory_effort",
        "make_straight_line_cubic_trajectory", "solve_energy_optimal_cubic_trajectory",
    ),
    ".pick_and_place": (
        "CartesianWaypoint", "JointWaypoints", "make_pick_and_place_waypoints",
        "plan_pick_and_place", "solve_waypoints_ik",
    ),
    ".support_polygon": ("SupportPolygon", "is_in_support_polygon"),
    ".zmp": (
        "calc_ground_reaction_wrench", "calc_zero_moment_point",
        "calc_zero_moment_point_from_contact_forces",
    ),
})
