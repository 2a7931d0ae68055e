"""Drake's contact-property tags (``drake:proximity_properties``), shared by URDF and
SDFormat.

In URDF each property is an element with a ``value`` attribute
(``<drake:mu_static value="0.8"/>``); in SDFormat it is the element's text
(``<drake:mu_static>0.8</drake:mu_static>``). Values are stored with Drake's
ProximityProperties keys (see `GeometryRecord.proximity`).
"""

from __future__ import annotations

__all__ = ["parse_proximity_properties"]

# tag -> (group, property, lower bound, strictly positive)
_SCALAR_TAGS = {
    "drake:hydroelastic_modulus": ("hydroelastic", "hydroelastic_modulus", True),
    "drake:mesh_resolution_hint": ("hydroelastic", "resolution_hint", True),
    "drake:hydroelastic_margin": ("hydroelastic", "margin", False),
    "drake:slab_thickness": ("hydroelastic", "slab_thickness", True),
    "drake:hunt_crossley_dissipation": ("material", "hunt_crossley_dissipation", False),
    "drake:relaxation_time": ("material", "relaxation_time", False),
    "drake:point_contact_stiffness": ("material", "point_contact_stiffness", True),
}
_FLAG_TAGS = {"drake:rigid_hydroelastic": "rigid", "drake:compliant_hydroelastic": "compliant"}


def parse_proximity_properties(doc, el, value_of, properties: dict | None = None) -> dict:
    """Contact properties declared under `el` (a ``drake:proximity_properties``).

    Parameters
    ----------
    doc : XmlDocument
    el : element
        The ``<drake:proximity_properties>`` element.
    value_of : callable
        ``value_of(child, positive) -> float`` reads one property's value (URDF:
        attribute ``value``; SDFormat: text).
    properties : dict, optional
        Properties to extend (e.g. friction from SDFormat's ``<surface>``).

    Returns
    -------
    dict
        ``(group, name) -> value``; friction as ``("material", "coulomb_friction") ->
        (mu_static, mu_dynamic)``; compliance as ``("hydroelastic", "compliance_type")``.

    Raises
    ------
    ParseError
        For negative values, both rigid and compliant declared, or non-numbers.
    """
    out = dict(properties or {})
    doc.mark(el)
    mu = {}
    for child in doc.elements(el):
        tag = doc.tag(child)
        if tag in _SCALAR_TAGS:
            group, name, positive = _SCALAR_TAGS[tag]
            out[(group, name)] = value_of(child, positive)
            doc.mark(child)
        elif tag in ("drake:mu_static", "drake:mu_dynamic"):
            mu[tag.split("_")[-1]] = value_of(child, False)
            doc.mark(child)
        elif tag in _FLAG_TAGS:
            if ("hydroelastic", "compliance_type") in out:
                doc.error(child, "a geometry cannot be both <drake:rigid_hydroelastic> and "
                                 "<drake:compliant_hydroelastic>")
            out[("hydroelastic", "compliance_type")] = _FLAG_TAGS[tag]
            doc.mark(child)
    if mu:
        static = mu.get("static", mu.get("dynamic"))
        dynamic = mu.get("dynamic", mu.get("static"))
        if "static" not in mu or "dynamic" not in mu:
            doc.defaulted(el, f"only one friction coefficient given; using mu_static = "
                              f"mu_dynamic = {static}")
        if dynamic > static:
            doc.error(el, f"mu_dynamic ({dynamic}) must not exceed mu_static ({static})")
        out[("material", "coulomb_friction")] = (static, dynamic)
    return out
