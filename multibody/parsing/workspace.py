"""ParsingWorkspace: what the format parsers share during one ``add_models`` call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from merganser.multibody.parsing.package_map import UnresolvedUriError

__all__ = ["ParsingWorkspace"]


@dataclass
class ParsingWorkspace:
    """The plant, the package map, the report and the naming policy of one parse.

    Attributes
    ----------
    plant : MultibodyPlant
        Receives the model (not finalized).
    package_map : PackageMap
        Resolves ``package://`` / ``model://`` URIs.
    diagnostics : Diagnostics
        Warnings, errors and report entries (strict mode).
    report : ImportReport
        The import report being filled (also holds the geometry records).
    add_model_instance : callable
        ``add_model_instance(doc, el, name, parent_name=None) -> int`` creates a model
        instance for a model named `name` (nested in `parent_name`, ``parent::name``),
        applying the parser's prefix and auto-renaming, or raises ParseError on a clash.
    fluid_density : float
        ρ (kg/m³) for the HydrodynamicForce elements created from ``<hydro>`` blocks.
    gravity : float
        g (m/s²) for buoyancy.
    """

    plant: object
    package_map: object
    diagnostics: object
    report: object
    add_model_instance: Callable
    fluid_density: float = 1000.0
    gravity: float = 9.81

    def resolve(self, doc, el, uri: str, what: str) -> str:
        """Resolve `uri` relative to `doc`'s directory through the package map, or raise
        ParseError at `el` naming `what` (a missing package or file)."""
        try:
            return self.package_map.resolve(uri, doc.base_dir)
        except UnresolvedUriError as err:
            doc.error(el, f"{what}: cannot resolve {uri!r}: {err}")
