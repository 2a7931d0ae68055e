"""Link mass properties from a model file: validity checks, Drake's substitute, and
adding the body to the plant.

A file gives a link's mass m, its center of mass p_BoBcm_B and its rotational inertia
about the center of mass in an inertial frame Bi (I_BcmBcm_Bi, with R_BBi). Files often
contain non-physical values (negative principal moments, moments that violate the
triangle inequality, a zero mass with a non-zero inertia). As Drake's parsers do, such a
link is loaded with a `ParseWarning` that names the link, the values and the violated
condition, and gets Drake's substitute inertia: a solid sphere of water density
(1000 kg/m³) with the file's mass (1 kg if that is not positive) centered at the file's
center of mass. In strict mode the warning is a `ParseError`.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from merganser.multibody.math import InertiaValidityWarning, SpatialInertia, find_inertia_violations

__all__ = ["add_link_body", "link_spatial_inertia", "substitute_inertia"]

_SUBSTITUTE_DENSITY = 1000.0  # kg/m³, as Drake.


def _fmt(a) -> str:
    return np.array2string(np.asarray(a, dtype=float), precision=6, separator=", ",
                           suppress_small=False).replace("\n", "")


def substitute_inertia(mass: float, p_BoBcm_B) -> SpatialInertia:
    """Drake's plausible stand-in: a solid sphere of density 1000 kg/m³ with `mass`
    (1 kg if not a positive finite number) centered at `p_BoBcm_B`, about Bo in B."""
    m = mass if (math.isfinite(mass) and mass > 0.0) else 1.0
    radius = (3.0 / (4.0 * math.pi) * m / _SUBSTITUTE_DENSITY) ** (1.0 / 3.0)
    I_cm = 0.4 * m * radius**2 * np.eye(3)
    return SpatialInertia.make_from_central_inertia(m, np.asarray(p_BoBcm_B, float), I_cm)


def link_spatial_inertia(doc, el, link_name: str, mass: float, p_BoBcm_B, I_BcmBcm_Bi,
                         R_BBi=None) -> SpatialInertia:
    """M_BBo_B of a link from its file values, checked for physical validity.

    Parameters
    ----------
    doc : XmlDocument
        For diagnostics.
    el : element
        The ``<inertial>`` element (location of the warning).
    link_name : str
        Named in messages.
    mass : float
        m (kg).
    p_BoBcm_B : array_like, shape (3,)
        Center of mass in the link frame B (m).
    I_BcmBcm_Bi : array_like, shape (3, 3)
        Rotational inertia about the center of mass, expressed in the inertial frame
        Bi (kg m²).
    R_BBi : array_like, shape (3, 3), optional
        Orientation of Bi in B (identity when omitted).

    Returns
    -------
    SpatialInertia
        About Bo, expressed in B: the file's values when valid, the zero inertia for a
        massless link (m = 0 and I = 0), otherwise Drake's substitute (with a warning).
    """
    c = np.asarray(p_BoBcm_B, dtype=np.float64)
    I_Bi = np.asarray(I_BcmBcm_Bi, dtype=np.float64)
    bound = 1e100  # squares (parallel axis, G = I/m + |c|²) must stay finite
    if not (np.all(np.abs(c) < bound) and np.all(np.abs(I_Bi) < bound) and abs(mass) < bound):
        doc.error(el, f"link '{link_name}': mass properties out of range (each value must be "
                      f"below {bound:g} in magnitude): mass = {mass!r}, p_BoBcm_B = "
                      f"{c.tolist()}, I = {I_Bi.tolist()}")
    R = np.eye(3) if R_BBi is None else np.asarray(R_BBi, dtype=np.float64)
    I_B = R @ I_Bi @ R.T
    I_B = 0.5 * (I_B + I_B.T)
    if mass == 0.0 and not np.any(I_B):
        return SpatialInertia.zero()
    if mass < 0.0:
        violation = f"mass must be non-negative, got mass = {mass:.6g}"
    elif mass == 0.0:
        violation = (f"mass is 0 but the rotational inertia is not zero (I_BBcm_B = "
                     f"{_fmt(I_B)}); a massless link must have zero inertia")
    else:
        G = I_B / mass + (c @ c) * np.eye(3) - np.outer(c, c)
        errors, soft = find_inertia_violations(mass, c, G)
        if not errors and not soft:
            return SpatialInertia(mass, c, G, skip_validity_check=True)
        violation = "; ".join(errors + soft)
    sub = substitute_inertia(mass, c)
    doc.warn(el, f"link '{link_name}': the inertia in the file is not physically valid: "
                 f"{violation} (moments and products as given: I_BcmBcm_Bi = {_fmt(I_Bi)}); "
                 f"using Drake's substitute instead, a solid sphere of density 1000 kg/m³ "
                 f"with mass {sub.get_mass():.6g} kg centered at p_BoBcm_B = {_fmt(c)}")
    return sub


def add_link_body(doc, el, plant, name: str, model_instance: int, M_BBo_B):
    """``plant.add_rigid_body(name, model_instance, M_BBo_B)`` with errors at `el`'s line.

    The plant's own InertiaValidityWarning is silenced (the parser already reported the
    inertia); a duplicate name or a plant configured with ``strict_inertia`` raise
    `ParseError`.
    """
    with doc.at(el, f"link '{name}'"), warnings.catch_warnings():
        warnings.simplefilter("ignore", InertiaValidityWarning)
        return plant.add_rigid_body(name, model_instance, M_BBo_B)
