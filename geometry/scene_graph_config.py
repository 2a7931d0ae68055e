"""SceneGraphConfig: default proximity properties a SceneGraph gives every proximity
geometry that lacks them (Drake's SceneGraphConfig and DefaultProximityProperties).

Each field of `DefaultProximityProperties` that is not None fills the property of the same
meaning in a geometry's ProximityProperties when the geometry does not set it; nothing the
geometry sets is replaced. The fields and their properties::

    compliance_type            ("hydroelastic", "compliance_type"), unless "undefined"
    hydroelastic_modulus       ("hydroelastic", "hydroelastic_modulus")
    resolution_hint            ("hydroelastic", "resolution_hint")
    slab_thickness             ("hydroelastic", "slab_thickness")
    margin                     ("hydroelastic", "margin")
    static/dynamic_friction    ("material", "coulomb_friction"), both or neither
    hunt_crossley_dissipation  ("material", "hunt_crossley_dissipation")
    relaxation_time            ("material", "relaxation_time")
    point_stiffness            ("material", "point_contact_stiffness")

`DefaultProximityProperties()` has Drake's defaults. A SceneGraph constructed without a
config fills nothing (`DefaultProximityProperties.none()`): merganser's plant then derives
point stiffness and dissipation from its penetration allowance. Pass
``SceneGraph(config=SceneGraphConfig())`` for Drake's defaults.
"""

from __future__ import annotations

from pydantic import ConfigDict, Field, model_validator

from merganser.framework.config_model import ConfigModel

from .properties import (
    FRICTION, HC_DISSIPATION, HYDROELASTIC, MATERIAL, POINT_STIFFNESS, RELAXATION_TIME,
    CoulombFriction, ProximityProperties,
)

__all__ = ["DefaultProximityProperties", "SceneGraphConfig", "backfill_proximity_defaults"]

_COMPLIANCE_TYPES = ("undefined", "rigid", "compliant")


class DefaultProximityProperties(ConfigModel):
    """Default proximity properties (see the module docstring); None: leave unset."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    compliance_type: str = "undefined"
    hydroelastic_modulus: float | None = Field(1e7, gt=0.0)
    resolution_hint: float | None = Field(0.02, gt=0.0)
    slab_thickness: float | None = Field(None, gt=0.0)
    margin: float | None = Field(None, ge=0.0)
    dynamic_friction: float | None = Field(0.5, ge=0.0)
    static_friction: float | None = Field(0.5, ge=0.0)
    hunt_crossley_dissipation: float | None = Field(50.0, ge=0.0)
    relaxation_time: float | None = Field(0.1, ge=0.0)
    point_stiffness: float | None = Field(1e6, gt=0.0)

    @model_validator(mode="after")
    def _consistent(self):
        if self.compliance_type not in _COMPLIANCE_TYPES:
            raise ValueError(f"DefaultProximityProperties: compliance_type must be one of "
                             f"{_COMPLIANCE_TYPES}, got {self.compliance_type!r}")
        if (self.static_friction is None) != (self.dynamic_friction is None):
            raise ValueError("DefaultProximityProperties: give both static_friction and "
                             "dynamic_friction, or neither")
        if self.static_friction is not None and self.dynamic_friction > self.static_friction:
            raise ValueError(f"DefaultProximityProperties: dynamic_friction "
                             f"{self.dynamic_friction} must not exceed static_friction "
                             f"{self.static_friction}")
        return self

    @classmethod
    def none(cls) -> "DefaultProximityProperties":
        """Defaults that fill nothing (a SceneGraph's without a config)."""
        return cls(hydroelastic_modulus=None, resolution_hint=None, dynamic_friction=None,
                   static_friction=None, hunt_crossley_dissipation=None,
                   relaxation_time=None, point_stiffness=None)


class SceneGraphConfig(ConfigModel):
    """The serializable settings of a SceneGraph."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    default_proximity_properties: DefaultProximityProperties = Field(
        default_factory=DefaultProximityProperties)


_FILLS = (
    (HYDROELASTIC, "hydroelastic_modulus", "hydroelastic_modulus"),
    (HYDROELASTIC, "resolution_hint", "resolution_hint"),
    (HYDROELASTIC, "slab_thickness", "slab_thickness"),
    (HYDROELASTIC, "margin", "margin"),
    (MATERIAL, HC_DISSIPATION, "hunt_crossley_dissipation"),
    (MATERIAL, RELAXATION_TIME, "relaxation_time"),
    (MATERIAL, POINT_STIFFNESS, "point_stiffness"),
)


def backfill_proximity_defaults(properties, defaults: DefaultProximityProperties):
    """`properties` (ProximityProperties) with every property it lacks taken from
    `defaults` (fields that are None, and compliance "undefined", fill nothing): a copy if
    anything is filled, else `properties` itself."""
    fills = []
    if defaults.compliance_type != "undefined":
        fills.append((HYDROELASTIC, "compliance_type", defaults.compliance_type))
    fills += [(group, name, float(getattr(defaults, field))) for group, name, field in _FILLS
              if getattr(defaults, field) is not None]
    if defaults.static_friction is not None:
        fills.append((MATERIAL, FRICTION, CoulombFriction(defaults.static_friction,
                                                          defaults.dynamic_friction)))
    fills = [f for f in fills if not properties.has_property(f[0], f[1])]
    if not fills:
        return properties
    out = ProximityProperties(properties)
    for group, name, value in fills:
        out.add_property(group, name, value)
    return out
