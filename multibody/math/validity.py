"""Physical validity of spatial inertias: the conditions, their report, and the warning
category used when a questionable (but usable) inertia is accepted.

A spatial inertia (mass m, center of mass p_PScm_E, unit inertia G_SP_E about P) can
describe a real body only if

1. every value is finite;
2. m >= 0;
3. the central rotational inertia I_SScm = m (G_SP - (|c|² 1 - c cᵀ)) is positive
   semidefinite (no negative principal moment);
4. its principal moments satisfy the triangle inequality (each at most the sum of the
   other two), which holds for every real mass distribution.

Violations of 1-3 make the dynamics meaningless (an indefinite mass matrix), so they are
errors. A violation of 4 is common in hand-written or rounded model files and does not
break the algorithms, so it is reported with an `InertiaValidityWarning`.
"""

import os
import sys
import warnings

import numpy as np

from .rotational_inertia import point_mass_inertia_matrix

__all__ = [
    "InertiaValidityWarning",
    "check_spatial_inertia",
    "find_inertia_violations",
    "warn_inertia_validity",
]

# Tolerance relative to the magnitude of the terms that form the central inertia.
_RELATIVE_TOLERANCE = 64 * np.finfo(np.float64).eps


class InertiaValidityWarning(UserWarning):
    """A spatial inertia was accepted although it violates a physical-validity condition."""


# Warnings are attributed to the first caller outside the multibody package (user code).
_MULTIBODY_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _fmt(x):
    """Format a scalar or nested array on one line with 6 significant digits."""
    if np.ndim(x) == 0:
        return f"{float(x):.6g}"
    return "[" + ", ".join(_fmt(item) for item in x) + "]"


def warn_inertia_validity(message):
    """Issue an InertiaValidityWarning attributed to the first caller outside multibody."""
    frame, level = sys._getframe(0), 1
    while frame is not None and frame.f_code.co_filename.startswith(_MULTIBODY_DIR):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, InertiaValidityWarning, stacklevel=level)


def find_inertia_violations(mass, p_PScm_E, G_SP_E):
    """Return the violated validity conditions of (mass, p_PScm_E, G_SP_E).

    Parameters
    ----------
    mass : float
        Mass m (kg).
    p_PScm_E : ndarray, shape (3,)
        Center of mass Scm from the about-point P, expressed in E (m).
    G_SP_E : ndarray, shape (3, 3)
        Unit inertia of S about P, expressed in E (m²).

    Returns
    -------
    errors : list of str
        Violations of conditions 1-3 (not finite, negative mass, central inertia not
        positive semidefinite), each naming the condition and the values.
    questionable : list of str
        Violations of condition 4 (triangle inequality), with the values.
    """
    c = np.asarray(p_PScm_E, dtype=np.float64)
    G = np.asarray(G_SP_E, dtype=np.float64)
    if not (np.isfinite(mass) and np.all(np.isfinite(c)) and np.all(np.isfinite(G))):
        return [
            f"values must be finite, got mass = {_fmt(mass)}, p_PScm_E = {_fmt(c)}, "
            f"G_SP_E = {_fmt(G)}"
        ], []
    if mass < 0.0:
        return [f"mass must be non-negative, got mass = {_fmt(mass)}"], []
    if mass == 0.0:
        return [], []
    I_cm = mass * (G - point_mass_inertia_matrix(c))
    I_cm = 0.5 * (I_cm + I_cm.T)
    scale = max(mass * np.max(np.abs(G)), mass * float(c @ c), np.finfo(np.float64).tiny)
    tol = _RELATIVE_TOLERANCE * scale
    principal = np.linalg.eigvalsh(I_cm)
    if principal[0] < -tol:
        return [
            "central rotational inertia I_SScm must be positive semidefinite, but its "
            f"smallest principal moment is {principal[0]:.6g} < 0 (principal moments "
            f"{_fmt(principal)}; mass = {_fmt(mass)}, p_PScm_E = {_fmt(c)}, "
            f"I_SScm_E = {_fmt(I_cm)})"
        ], []
    moments = np.diag(I_cm)
    names = ("Ixx", "Iyy", "Izz")
    for k in range(3):
        i, j = (k + 1) % 3, (k + 2) % 3
        if moments[k] > moments[i] + moments[j] + tol:
            return [], [
                "central rotational inertia violates the triangle inequality "
                f"{names[k]} <= {names[i]} + {names[j]}: {moments[k]:.6g} > "
                f"{moments[i]:.6g} + {moments[j]:.6g} (I_SScm_E = {_fmt(I_cm)}, "
                f"mass = {_fmt(mass)}); no real mass distribution has this inertia"
            ]
    if principal[2] > principal[0] + principal[1] + tol:
        return [], [
            "central rotational inertia violates the triangle inequality of principal "
            f"moments: {principal[2]:.6g} > {principal[0]:.6g} + {principal[1]:.6g} "
            f"(I_SScm_E = {_fmt(I_cm)}, mass = {_fmt(mass)}); no real mass distribution has "
            "this inertia"
        ]
    return [], []


def check_spatial_inertia(M, *, strict=False, name=""):
    """Check a SpatialInertia's physical validity and report every violated condition.

    Parameters
    ----------
    M : SpatialInertia
        The spatial inertia M_SP_E to check.
    strict : bool
        If True, any violation (including the triangle inequality) raises ValueError.
    name : str
        What the inertia belongs to (e.g. a body name), included in messages.

    Returns
    -------
    list of str
        The violated conditions (empty when M is physically valid).

    Raises
    ------
    ValueError
        If a value is not finite, the mass is negative or the central inertia is not
        positive semidefinite (always), or anything is violated and `strict` is True.
        The message includes `name` and the values.

    Warns
    -----
    InertiaValidityWarning
        Once per non-fatal violation (the triangle inequality) when not `strict`.
    """
    errors, soft = find_inertia_violations(M.get_mass(), M.get_com(), M.get_unit_inertia()
                                           .copy_to_full_matrix3())
    what = f"spatial inertia of {name!r}" if name else "spatial inertia"
    if errors or (strict and soft):
        raise ValueError(f"check_spatial_inertia: {what} is not physically valid: "
                         + "; ".join(errors + soft))
    for violation in soft:
        warn_inertia_validity(f"{what} is not physically valid: {violation}")
    return errors + soft
