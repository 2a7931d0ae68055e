"""The RobotDynamics ``<hydro>`` block of a URDF link.

::

    <link name="hull">
      <hydro>
        <buoyancy>
          <volume>0.003</volume>                 <!-- m³ -->
          <origin xyz="0.01 0.2 -0.03"/>          <!-- center of buoyancy in the link -->
        </buoyancy>
        <added_mass> 36 numbers, row by row, order x y z r p y </added_mass>
        <drag>
          <linear_damping> 6 numbers, x y z r p y </linear_damping>
          <quadratic_damping> 6 numbers, x y z r p y </quadratic_damping>
        </drag>
      </hydro>
    </link>

Every part is optional: a link without ``<hydro>`` has no hydrodynamics; a missing
``<buoyancy>``, ``<added_mass>`` or ``<drag>`` contributes nothing. The file's order is
translational first; `BodyHydroData` stores everything rotational first, as the plant
does. The added mass must be symmetric positive definite. Malformed blocks (wrong
counts, non-numbers, an indefinite added mass) raise `ParseError` with the line.
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.hydrodynamics.body_hydro_data import (
    BodyHydroData,
    reorder_translational_first_matrix,
    reorder_translational_first_vector,
)
from merganser.multibody.parsing.diagnostics import Diagnostics
from merganser.multibody.parsing.import_report import ImportReport
from merganser.multibody.parsing.xml_document import XmlDocument

__all__ = ["parse_hydro_element", "parse_hydrodynamics_parameters"]


def _parse_buoyancy(doc, el):
    volume = doc.child_float(el, "volume", minimum=0.0)
    origin = doc.child(el, "origin")
    if origin is None:
        doc.defaulted(el, "no <origin>: the center of buoyancy is the link origin")
        return volume, np.zeros(3)
    doc.mark(origin)
    center = doc.attr_vector(origin, "xyz", 3, default=np.zeros(3))
    rpy = doc.attr_vector(origin, "rpy", 3, default=np.zeros(3))
    if np.any(rpy):
        doc.warn(origin, "the 'rpy' of a center of buoyancy has no meaning and is ignored")
    return volume, center


def _parse_added_mass(doc, el, link_name):
    values = doc.text_vector(el, 36)
    M_file = values.reshape(6, 6)
    scale = float(np.max(np.abs(M_file))) or 1.0
    if not np.allclose(M_file, M_file.T, rtol=0.0, atol=1e-9 * scale):
        doc.error(el, f"link '{link_name}': <added_mass> must be a symmetric 6x6 matrix, "
                      f"but M[i, j] != M[j, i] (largest asymmetry "
                      f"{np.max(np.abs(M_file - M_file.T)):.6g})")
    M_file = 0.5 * (M_file + M_file.T)
    smallest = float(np.linalg.eigvalsh(M_file)[0])
    if not smallest > 0.0:
        doc.error(el, f"link '{link_name}': <added_mass> must be positive definite, but its "
                      f"smallest eigenvalue is {smallest:.6g}")
    doc.mark(el, message="6x6 added mass, reordered rotational first")
    return reorder_translational_first_matrix(M_file)


def _parse_drag(doc, el, link_name):
    out = []
    for tag in ("linear_damping", "quadratic_damping"):
        child = doc.child(el, tag)
        if child is None:
            doc.defaulted(el, f"no <{tag}>: zero")
            out.append(np.zeros(6))
            continue
        coefficients = doc.text_vector(child, 6)
        if np.any(coefficients > 0.0):
            doc.warn(child, f"link '{link_name}': <{tag}> has positive coefficients "
                            f"{coefficients.tolist()}; the drag force is a∘V + b∘V|V|, so "
                            f"positive coefficients add energy (damping needs negative ones)")
        else:
            doc.mark(child, message="reordered rotational first")
        out.append(reorder_translational_first_vector(coefficients))
    return out


def parse_hydro_element(doc: XmlDocument, el, link_name: str) -> BodyHydroData:
    """`BodyHydroData` of one ``<hydro>`` element (see the module docstring)."""
    doc.mark(el)
    data = {"has_hydro": True}
    buoyancy = doc.child(el, "buoyancy")
    if buoyancy is not None:
        doc.mark(buoyancy)
        data["volume"], data["center_of_buoyancy"] = _parse_buoyancy(doc, buoyancy)
    added = doc.child(el, "added_mass")
    if added is not None:
        data["added_mass_matrix"] = _parse_added_mass(doc, added, link_name)
    drag = doc.child(el, "drag")
    if drag is not None:
        doc.mark(drag)
        data["linear_drag"], data["quadratic_drag"] = _parse_drag(doc, drag, link_name)
    for tag in ("buoyancy", "added_mass", "drag"):
        if len(doc.elements(el, tag)) > 1:
            doc.error(doc.elements(el, tag)[1], f"link '{link_name}': <hydro> has more than "
                                                f"one <{tag}>")
    return BodyHydroData(**data)


def parse_hydrodynamics_parameters(xml_string: str, *, label: str = "<string.urdf>"
                                   ) -> dict[str, BodyHydroData]:
    """Hydrodynamic parameters of every link of a URDF document.

    Parameters
    ----------
    xml_string : str
        The URDF contents.
    label : str
        Name used for the document in messages.

    Returns
    -------
    dict of str to BodyHydroData
        One entry per ``<link>``; ``has_hydro`` is False for links without ``<hydro>``.

    Raises
    ------
    ParseError
        For malformed XML, a document that is not a ``<robot>``, or a malformed
        ``<hydro>`` block (with its line).
    """
    if not isinstance(xml_string, (str, bytes)):
        raise TypeError(f"parse_hydrodynamics_parameters: xml_string must be a str, got "
                        f"{type(xml_string).__name__}")
    doc = XmlDocument.load(Diagnostics(ImportReport(label, "urdf")), text=xml_string,
                           label=label)
    if doc.tag(doc.root) != "robot":
        doc.error(doc.root, f"expected a URDF <robot> document, got <{doc.tag(doc.root)}>")
    out = {}
    for link in doc.elements(doc.root, "link"):
        name = doc.attr(link, "name")
        blocks = doc.elements(link, "hydro")
        if len(blocks) > 1:
            doc.error(blocks[1], f"link '{name}' has more than one <hydro> block")
        out[name] = parse_hydro_element(doc, blocks[0], name) if blocks else BodyHydroData()
    return out
