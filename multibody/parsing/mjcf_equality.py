"""MJCF ``<equality>`` and ``<tendon>`` -> the plant's constraints (as Drake's mimic rule).

Constraints are honored only by plants that enforce them (discrete plants with the
sap, similar, lagged or lcp approximation); on other plants each one is dropped with a
located warning naming it, exactly like URDF ``<mimic>``.

- ``<connect body1 body2 anchor>``: a ball constraint; the point is ``anchor`` in body1,
  and its position in body2 is where it is at the model's reference configuration
  (MuJoCo's qpos0). The ``site1``/``site2`` form uses the two sites' positions.
- ``<weld body1 body2 relpose>``: a weld constraint holding body2's pose in body1 at
  ``relpose`` ([pos; quat]), or at the reference configuration's when it is absent or
  all zero (MuJoCo's default); ``anchor`` is not used (warned).
- ``<joint joint1 joint2 polycoef>``: q1 - q1ref = a0 + a1 (q2 - q2ref) becomes the
  coupler constraint q1 = a1 q2 + (a0 + q1ref - a1 q2ref) when a2..a4 are zero; a
  higher-degree polynomial or a missing joint2 (q1 held fixed) is refused with a warning.
- ``<tendon tendon1 [tendon2] polycoef>`` of a fixed tendon over two joints
  (c1 q1 + c2 q2 = a0, tendon2 absent) becomes the coupler q1 = -(c2/c1) q2 + a0/c1;
  other tendon equalities are dropped with a warning.
- ``<tendon><fixed>``: a length used by the equalities above; its limits, stiffness,
  damping and any actuator on it are dropped (warned). ``<spatial>`` tendons are
  ignored (warned).

``solref``, ``solimp`` and ``active`` are MuJoCo's soft-constraint parameters; they are
dropped (the plant's constraints are rigid), and ``active="false"`` skips the element.
"""

from __future__ import annotations

import numpy as np

from merganser.geometry import quaternion_to_rotation_matrix
from merganser.multibody.parsing.urdf_joints import constraints_unsupported_reason

__all__ = ["parse_mjcf_equality", "parse_mjcf_tendons"]

_SOFT = ("solref", "solimp", "name", "class")


def parse_mjcf_tendons(doc, el, apply_defaults) -> dict:
    """Fixed tendons of a ``<tendon>`` element: name -> (element, [(joint name, coef)])."""
    doc.mark(el)
    tendons = {}
    for k, t in enumerate(doc.elements(el)):
        tag = doc.tag(t)
        if tag != "fixed":
            doc.ignore(t, f"<{tag}> tendons are not supported and are ignored")
            continue
        apply_defaults(t, "tendon")
        name = doc.attr(t, "name", None) or f"tendon{k}"
        doc.mark(t)
        terms = []
        for j in doc.elements(t, "joint"):
            doc.mark(j)
            terms.append((doc.attr(j, "joint"), doc.attr_float(j, "coef")))
        dropped = [a for a in ("range", "limited", "stiffness", "damping", "springlength",
                               "frictionloss", "margin", "armature") if doc.has(t, a)]
        doc.consume(t, *dropped, "rgba", "width", "material", "group", "solreflimit",
                    "solimplimit", "solreffriction", "solimpfriction", "class")
        if dropped:
            doc.warn(t, f"fixed tendon '{name}': {dropped} are dropped (the plant has no "
                        f"tendons; only couplings through <equality> are kept)")
        tendons[name] = (t, terms)
    return tendons


def _active(doc, e):
    doc.consume(e, *_SOFT)
    return doc.parse_bool(e, doc.attr(e, "active", "true"), "active")


def parse_mjcf_equality(doc, el, plant, mi, *, pose_of_body, site_of, joint_ref, tendons,
                        apply_defaults) -> None:
    """Add the constraints of an ``<equality>`` element (see the module docstring).

    Parameters
    ----------
    pose_of_body : callable
        name -> X_WB (4, 4) at the reference configuration.
    site_of : callable
        site name -> (body name, p_BS (3,)) or None.
    joint_ref : dict
        joint name -> its reference position (MuJoCo's qpos0 entry), radians/metres.
    tendons : dict
        As returned by `parse_mjcf_tendons`.
    """
    doc.mark(el)
    reason = constraints_unsupported_reason(plant)
    for e in doc.elements(el):
        tag = doc.tag(e)
        if tag not in ("connect", "weld", "joint", "tendon"):
            doc.ignore(e, f"equality <{tag}> is not supported and is ignored")
            continue
        apply_defaults(e, "equality")
        doc.mark(e)
        if not _active(doc, e):
            doc.consume(e, "body1", "body2", "anchor", "relpose", "joint1", "joint2",
                        "polycoef", "tendon1", "tendon2", "site1", "site2", "torquescale")
            doc.defaulted(e, f"equality <{tag}> has active=false and is skipped")
            continue
        if reason is not None:
            doc.consume(e, "body1", "body2", "anchor", "relpose", "joint1", "joint2",
                        "polycoef", "tendon1", "tendon2", "site1", "site2", "torquescale")
            doc.warn(e, f"equality <{tag}> is dropped: {reason}; constraints need a discrete "
                        f"plant with the sap, similar, lagged or lcp approximation")
            continue
        with doc.at(e, f"equality <{tag}>"):
            if tag == "connect":
                _connect(doc, e, plant, mi, pose_of_body, site_of)
            elif tag == "weld":
                _weld(doc, e, plant, mi, pose_of_body, site_of)
            elif tag == "joint":
                _joint(doc, e, plant, mi, joint_ref)
            else:
                _tendon(doc, e, plant, mi, tendons, joint_ref)


def _body(doc, e, plant, mi, name):
    if name == "world":
        return plant.world_body()
    if not plant.has_body_named(name, mi):
        doc.error(e, f"equality names body '{name}', which does not exist")
    return plant.get_body_by_name(name, mi)


def _bodies_and_points(doc, e, plant, mi, pose_of_body, site_of):
    """(body1, body2, p_1P, p_2P) from body1/body2/anchor or site1/site2."""
    if doc.has(e, "site1"):
        s1, s2 = site_of(doc.attr(e, "site1")), site_of(doc.attr(e, "site2"))
        if s1 is None or s2 is None:
            doc.error(e, "equality names a site that does not exist")
        return (_body(doc, e, plant, mi, s1[0]), _body(doc, e, plant, mi, s2[0]), s1[1],
                s2[1], s1[0], s2[0])
    n1, n2 = doc.attr(e, "body1"), doc.attr(e, "body2", "world")
    b1, b2 = _body(doc, e, plant, mi, n1), _body(doc, e, plant, mi, n2)
    anchor = doc.attr_vector(e, "anchor", 3, default=np.zeros(3))
    X_W1, X_W2 = pose_of_body(n1), pose_of_body(n2)
    p_WP = X_W1[:3, :3] @ anchor + X_W1[:3, 3]
    p_2P = X_W2[:3, :3].T @ (p_WP - X_W2[:3, 3])
    return b1, b2, anchor, p_2P, n1, n2


def _connect(doc, e, plant, mi, pose_of_body, site_of):
    b1, b2, p_1P, p_2P, _, _ = _bodies_and_points(doc, e, plant, mi, pose_of_body, site_of)
    plant.add_ball_constraint(b1, p_1P, b2, p_2P)


def _weld(doc, e, plant, mi, pose_of_body, site_of):
    if doc.has(e, "site1"):
        b1, b2, p1, p2, n1, n2 = _bodies_and_points(doc, e, plant, mi, pose_of_body, site_of)
        X_1P, X_2Q = np.eye(4), np.eye(4)
        X_1P[:3, 3], X_2Q[:3, 3] = p1, p2
        plant.add_weld_constraint(b1, X_1P, b2, X_2Q)
        return
    n1, n2 = doc.attr(e, "body1"), doc.attr(e, "body2", "world")
    b1, b2 = _body(doc, e, plant, mi, n1), _body(doc, e, plant, mi, n2)
    if doc.has(e, "anchor"):
        doc.consume(e, "anchor")
        doc.warn(e, "weld 'anchor' only moves MuJoCo's constraint point; it is not used")
    doc.consume(e, "torquescale")
    relpose = doc.attr_vector(e, "relpose", 7, default=np.zeros(7))
    X_12 = np.eye(4)
    if np.all(relpose[3:] == 0.0):   # MuJoCo: keep the reference configuration's pose
        X_W1, X_W2 = pose_of_body(n1), pose_of_body(n2)
        X_12 = np.linalg.inv(X_W1) @ X_W2
    else:
        X_12[:3, :3] = quaternion_to_rotation_matrix(relpose[3:] / np.linalg.norm(relpose[3:]))
        X_12[:3, 3] = relpose[:3]
    plant.add_weld_constraint(b1, X_12, b2, np.eye(4))


def _polycoef(doc, e):
    c = doc.attr_vector(e, "polycoef", 5, default=np.array([0.0, 1.0, 0.0, 0.0, 0.0]))
    return c


def _joint(doc, e, plant, mi, joint_ref):
    j1, j2 = doc.attr(e, "joint1"), doc.attr(e, "joint2", None)
    c = _polycoef(doc, e)
    for name in (j1, j2):
        if name is not None and not plant.has_joint_named(name, mi):
            doc.error(e, f"joint equality names joint '{name}', which does not exist")
    if j2 is None or np.any(c[2:] != 0.0):
        why = "it has no joint2 (holds joint1 fixed)" if j2 is None else \
            f"polycoef {c.tolist()} is not linear"
        doc.warn(e, f"joint equality on '{j1}' is dropped: {why}; only linear couplings of "
                    f"two joints map to a coupler constraint")
        return
    r1, r2 = joint_ref.get(j1, 0.0), joint_ref.get(j2, 0.0)
    plant.add_coupler_constraint(plant.get_joint_by_name(j1, mi), plant.get_joint_by_name(j2, mi),
                                 c[1], c[0] + r1 - c[1] * r2)


def _tendon(doc, e, plant, mi, tendons, joint_ref):
    t1, t2 = doc.attr(e, "tendon1"), doc.attr(e, "tendon2", None)
    c = _polycoef(doc, e)
    if t1 not in tendons:
        doc.warn(e, f"tendon equality names tendon '{t1}', which is not a fixed tendon; it "
                    f"is dropped")
        return
    terms = tendons[t1][1]
    if t2 is not None or len(terms) != 2 or terms[0][1] == 0.0:
        doc.warn(e, f"tendon equality on '{t1}' is dropped: only a fixed tendon over two "
                    f"joints held at a constant length maps to a coupler constraint")
        return
    (ja, ca), (jb, cb) = terms
    for name in (ja, jb):
        if not plant.has_joint_named(name, mi):
            doc.error(e, f"tendon '{t1}' names joint '{name}', which does not exist")
    # MuJoCo: L(q) - L(qref) = a0, with L = ca qa + cb qb.
    L0 = ca * joint_ref.get(ja, 0.0) + cb * joint_ref.get(jb, 0.0)
    plant.add_coupler_constraint(plant.get_joint_by_name(ja, mi), plant.get_joint_by_name(jb, mi),
                                 -cb / ca, (c[0] + L0) / ca)
