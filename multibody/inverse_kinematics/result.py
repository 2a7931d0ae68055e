"""InverseKinematicsResult: what every inverse-kinematics solver returns."""

from dataclasses import dataclass, field

import numpy as np

__all__ = ["InverseKinematicsResult"]


@dataclass
class InverseKinematicsResult:
    """Outcome of an inverse-kinematics solve.

    Attributes
    ----------
    q : ndarray, shape (nq,)
        The generalized positions found (the best ones when `success` is False: for an
        unreachable target, the configuration closest to it that the solver reached).
    success : bool
        True when the target was reached within the tolerances (iterative solvers) or
        every constraint is satisfied (`InverseKinematics`).
    position_error : float
        Distance (m) from the end-effector point to the position target (NaN when the
        solve had no position target).
    orientation_error : float
        Angle (rad) between the end-effector orientation and the orientation target (NaN
        when the solve had no orientation target).
    num_iterations : int
        Iterations taken (CCD sweeps, Jacobian steps or optimizer iterations).
    message : str
        How the solve ended, in words.
    cost : float
        Final value of the cost (0 for the iterative solvers; NaN when not computed).
    constraint_violation : float
        Largest constraint violation (`InverseKinematics`; 0 for the iterative solvers).
    details : dict
        Solver-specific extras (``"scipy"``: scipy's OptimizeResult for
        `InverseKinematics`).
    """

    q: np.ndarray
    success: bool
    position_error: float = float("nan")
    orientation_error: float = float("nan")
    num_iterations: int = 0
    message: str = ""
    cost: float = float("nan")
    constraint_violation: float = 0.0
    details: dict = field(default_factory=dict, repr=False)

    def is_success(self):
        """`success` (Drake's MathematicalProgramResult.is_success())."""
        return bool(self.success)

    def get_solution(self):
        """A copy of `q` (Drake's GetSolution(ik.q()))."""
        return np.array(self.q)
