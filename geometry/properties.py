"""Geometry role properties and the helper functions that write contact parameters.

Properties are maps (group, name) -> value. The contact material lives in the
``"material"`` group and the hydroelastic parameters in the ``"hydroelastic"`` group,
with Drake's property names:

==============================================  ===============================================
``("material", "coulomb_friction")``            `CoulombFriction`
``("material", "point_contact_stiffness")``     point stiffness k (N/m)
``("material", "hunt_crossley_dissipation")``   Hunt & Crossley d (s/m) (continuous, TAMSI)
``("material", "relaxation_time")``             Kelvin-Voigt relaxation time τ (s) (SAP)
``("hydroelastic", "compliance_type")``         ``"rigid"`` or ``"compliant"``
``("hydroelastic", "hydroelastic_modulus")``    E (Pa)
``("hydroelastic", "resolution_hint")``         mesh resolution (m)
``("hydroelastic", "slab_thickness")``          half-space slab thickness (m)
``("hydroelastic", "tessellation_strategy")``   compliant sphere / ellipsoid mesh:
                                                `TessellationStrategy` (default
                                                ``kSingleInteriorVertex``, Drake's)
==============================================  ===============================================
"""

import copy
import math

import numpy as np

from merganser.framework import AbstractValue

from .rgba import Rgba

__all__ = [
    "CoulombFriction", "GeometryProperties", "ProximityProperties", "IllustrationProperties",
    "PerceptionProperties", "add_contact_material", "add_compliant_hydroelastic_properties",
    "add_rigid_hydroelastic_properties",
    "add_compliant_hydroelastic_properties_for_half_space",
    "calc_contact_friction_from_surface_properties", "make_phong_illustration_properties",
]

MATERIAL = "material"
HYDROELASTIC = "hydroelastic"
FRICTION = "coulomb_friction"
POINT_STIFFNESS = "point_contact_stiffness"
HC_DISSIPATION = "hunt_crossley_dissipation"
RELAXATION_TIME = "relaxation_time"


class CoulombFriction:
    """Static and dynamic coefficients of friction (dimensionless, static >= dynamic >= 0)."""

    __slots__ = ("_static", "_dynamic")

    def __init__(self, static_friction=0.0, dynamic_friction=None):
        if dynamic_friction is None:
            dynamic_friction = static_friction
        s, d = float(static_friction), float(dynamic_friction)
        if not (math.isfinite(s) and math.isfinite(d) and s >= 0.0 and d >= 0.0):
            raise ValueError(f"CoulombFriction: coefficients must be finite and >= 0, got "
                             f"static_friction={static_friction!r}, "
                             f"dynamic_friction={dynamic_friction!r}")
        if d > s:
            raise ValueError(f"CoulombFriction: dynamic_friction ({d}) must not exceed "
                             f"static_friction ({s})")
        self._static, self._dynamic = s, d

    def static_friction(self):
        return self._static

    def dynamic_friction(self):
        return self._dynamic

    def __eq__(self, other):
        return (isinstance(other, CoulombFriction) and other._static == self._static
                and other._dynamic == self._dynamic)

    def __hash__(self):
        return hash((self._static, self._dynamic))

    def __repr__(self):
        return f"CoulombFriction(static_friction={self._static}, dynamic_friction={self._dynamic})"


def calc_contact_friction_from_surface_properties(surface_a, surface_b):
    """Combined friction of two surfaces: μ = 2 μa μb / (μa + μb) for each coefficient."""
    def combine(a, b):
        return 0.0 if a + b == 0.0 else 2.0 * a * b / (a + b)
    return CoulombFriction(combine(surface_a.static_friction(), surface_b.static_friction()),
                           combine(surface_a.dynamic_friction(), surface_b.dynamic_friction()))


def _group_arg(fn, group_name, group):
    """The group name given as `group_name` (Drake's keyword) or `group`."""
    if group is not None:
        if group_name is not None:
            raise TypeError(f"GeometryProperties.{fn}: give group_name or group, not both")
        return group
    return group_name


class GeometryProperties:
    """A map (group, name) -> value; see the module docstring for the contact names.

    As in Drake, the default group ``"__default__"`` always exists; group names are given as
    ``group_name`` (or ``group``).
    """

    _DEFAULT = "__default__"

    def __init__(self, other=None):
        self._groups = {self._DEFAULT: {}}
        if other is not None:
            if not isinstance(other, GeometryProperties):
                raise TypeError(f"{type(self).__name__}: other must be GeometryProperties, got "
                                f"{type(other).__name__}")
            for group, props in other._groups.items():
                self._groups[group] = dict(props)

    @classmethod
    def default_group_name(cls):
        return cls._DEFAULT

    def num_groups(self):
        return len(self._groups)

    def add_property(self, group_name=None, name=None, value=None, *, group=None):
        """Add a new property; raises if (group, name) exists (use update_property)."""
        group = _group_arg("add_property", group_name, group)
        g = self._groups.setdefault(self._check(group, "group", "add_property"), {})
        if self._check(name, "name", "add_property") in g:
            raise ValueError(f"{type(self).__name__}.add_property: property ({group!r}, "
                             f"{name!r}) already exists; use update_property to change it")
        g[name] = value

    def update_property(self, group_name=None, name=None, value=None, *, group=None):
        """Add or replace the property (group, name)."""
        group = _group_arg("update_property", group_name, group)
        self._groups.setdefault(self._check(group, "group", "update_property"), {})[
            self._check(name, "name", "update_property")] = value

    def has_property(self, group_name=None, name=None, *, group=None):
        return name in self._groups.get(_group_arg("has_property", group_name, group), ())

    def has_group(self, group_name=None, *, group=None):
        return _group_arg("has_group", group_name, group) in self._groups

    def get_property(self, group_name=None, name=None, *, group=None):
        """The value of (group, name); raises KeyError naming the property if missing."""
        group = _group_arg("get_property", group_name, group)
        try:
            return self._groups[group][name]
        except KeyError:
            raise KeyError(f"{type(self).__name__}.get_property: no property ({group!r}, "
                           f"{name!r}); groups are {sorted(self._groups)}") from None

    def get_property_or_default(self, group_name=None, name=None, default_value=None, *,
                                group=None, default=None):
        group = _group_arg("get_property_or_default", group_name, group)
        fallback = default if default is not None else default_value
        return self._groups.get(group, {}).get(name, fallback)

    def remove_property(self, group_name=None, name=None, *, group=None):
        """Remove (group, name); returns True if it existed."""
        g = self._groups.get(_group_arg("remove_property", group_name, group))
        if g is None or name not in g:
            return False
        del g[name]
        return True

    def get_group_names(self):
        return sorted(self._groups)

    def get_properties_in_group(self, group_name=None, *, group=None):
        """The properties of a group: a dict name -> AbstractValue (as Drake)."""
        group = _group_arg("get_properties_in_group", group_name, group)
        return {k: AbstractValue.make(v) for k, v in self._groups.get(group, {}).items()}

    @staticmethod
    def _check(value, what, fn):
        if not isinstance(value, str) or not value:
            raise ValueError(f"GeometryProperties.{fn}: {what} must be a non-empty str, got "
                             f"{value!r}")
        return value

    def __copy__(self):
        return type(self)(self)

    def __deepcopy__(self, memo):
        out = type(self)()
        out._groups = copy.deepcopy(self._groups, memo)
        return out

    def __str__(self):
        lines = []
        for group in sorted(self._groups):
            lines.append(f"[{group}]")
            lines += [f"  {k}: {v!r}" for k, v in self._groups[group].items()]
        return "\n".join(lines)

    def __repr__(self):
        return f"{type(self).__name__}({self._groups!r})"


class ProximityProperties(GeometryProperties):
    """Properties of the proximity (collision) role."""


class IllustrationProperties(GeometryProperties):
    """Properties of the illustration role (e.g. ("phong", "diffuse") rgba)."""


class PerceptionProperties(GeometryProperties):
    """Properties of the perception role."""


def _nonneg(fn, arg, value):
    x = float(value)
    if not (math.isfinite(x) and x >= 0.0):
        raise ValueError(f"{fn}: {arg} must be finite and >= 0, got {value!r}")
    return x


def _positive(fn, arg, value):
    x = float(value)
    if not (math.isfinite(x) and x > 0.0):
        raise ValueError(f"{fn}: {arg} must be finite and > 0, got {value!r}")
    return x


def _props(fn, properties):
    if properties is None:
        return ProximityProperties()
    if not isinstance(properties, ProximityProperties):
        raise TypeError(f"{fn}: properties must be a ProximityProperties, got "
                        f"{type(properties).__name__}")
    return properties


def add_contact_material(dissipation=None, point_stiffness=None, friction=None,
                         properties=None, *, relaxation_time=None):
    """Write the contact material into `properties` (a new ProximityProperties if None).

    Parameters
    ----------
    dissipation : float, optional
        Hunt & Crossley dissipation d (s/m), >= 0.
    point_stiffness : float, optional
        Point contact stiffness k (N/m), > 0.
    friction : CoulombFriction, optional
    properties : ProximityProperties, optional
    relaxation_time : float, optional
        Kelvin-Voigt relaxation time τ (s), >= 0, used by the SAP solver.

    Returns
    -------
    ProximityProperties
    """
    fn = "add_contact_material"
    props = _props(fn, properties)
    if dissipation is not None:
        props.update_property(MATERIAL, HC_DISSIPATION, _nonneg(fn, "dissipation", dissipation))
    if point_stiffness is not None:
        props.update_property(MATERIAL, POINT_STIFFNESS,
                              _positive(fn, "point_stiffness", point_stiffness))
    if friction is not None:
        if not isinstance(friction, CoulombFriction):
            raise TypeError(f"{fn}: friction must be a CoulombFriction, got "
                            f"{type(friction).__name__}")
        props.update_property(MATERIAL, FRICTION, friction)
    if relaxation_time is not None:
        props.update_property(MATERIAL, RELAXATION_TIME,
                              _nonneg(fn, "relaxation_time", relaxation_time))
    return props


def add_compliant_hydroelastic_properties(resolution_hint, hydroelastic_modulus, properties):
    """Mark the geometry compliant-hydroelastic with modulus E (Pa) and mesh resolution (m)."""
    fn = "add_compliant_hydroelastic_properties"
    props = _props(fn, properties)
    props.update_property(HYDROELASTIC, "compliance_type", "compliant")
    props.update_property(HYDROELASTIC, "resolution_hint",
                          _positive(fn, "resolution_hint", resolution_hint))
    props.update_property(HYDROELASTIC, "hydroelastic_modulus",
                          _positive(fn, "hydroelastic_modulus", hydroelastic_modulus))
    return props


def add_rigid_hydroelastic_properties(resolution_hint=None, properties=None):
    """Mark the geometry rigid-hydroelastic (resolution hint in m, for meshed primitives)."""
    fn = "add_rigid_hydroelastic_properties"
    props = _props(fn, properties)
    props.update_property(HYDROELASTIC, "compliance_type", "rigid")
    if resolution_hint is not None:
        props.update_property(HYDROELASTIC, "resolution_hint",
                              _positive(fn, "resolution_hint", resolution_hint))
    return props


def add_compliant_hydroelastic_properties_for_half_space(slab_thickness, hydroelastic_modulus,
                                                         properties):
    """Mark a HalfSpace compliant-hydroelastic: slab thickness (m) and modulus E (Pa)."""
    fn = "add_compliant_hydroelastic_properties_for_half_space"
    props = _props(fn, properties)
    props.update_property(HYDROELASTIC, "compliance_type", "compliant")
    props.update_property(HYDROELASTIC, "slab_thickness",
                          _positive(fn, "slab_thickness", slab_thickness))
    props.update_property(HYDROELASTIC, "hydroelastic_modulus",
                          _positive(fn, "hydroelastic_modulus", hydroelastic_modulus))
    return props


def make_phong_illustration_properties(diffuse):
    """IllustrationProperties with ("phong", "diffuse") set to `diffuse` (an Rgba or 4
    numbers in [0, 1], stored as an Rgba)."""
    rgba = diffuse if isinstance(diffuse, Rgba) else Rgba(*np.asarray(diffuse, float).reshape(4))
    props = IllustrationProperties()
    props.add_property("phong", "diffuse", rgba)
    return props
