"""Per-geometry contact parameters, their defaults and how a pair combines them.

Defaults (geometries whose ProximityProperties lack a value):

- point stiffness and Hunt & Crossley dissipation from the plant's penetration allowance δ
  (Drake's penalty estimate, with the total mass instead of the largest body mass): with
  m the total mass of the bodies and g = |gravity|, a pair of such geometries has the
  combined stiffness k = m g / δ, so that no contact penetrates by more than δ under any
  static load (a whole pile resting on one contact included), i.e. each geometry
  k_g = 2 m g / δ; the free oscillation ω = sqrt(k / m) = sqrt(g / δ) gives the time scale
  t = 1/ω and the critically damped dissipation d = t / δ (s/m);
- relaxation time τ = 0.1 s per geometry (SAP, Drake's default), friction μ = 0.5.

A pair combines as in DESIGN.md: k = k₁k₂/(k₁+k₂), d = k₂/(k₁+k₂) d₁ + k₁/(k₁+k₂) d₂,
τ = τ₁ + τ₂ (Drake), and μ = 2μ₁μ₂/(μ₁+μ₂) (dynamic coefficients).
"""

import math

import numpy as np

from merganser.geometry.properties import (
    FRICTION, HC_DISSIPATION, MATERIAL, POINT_STIFFNESS, RELAXATION_TIME, CoulombFriction,
)

__all__ = ["PenaltyDefaults", "estimate_penalty_defaults", "geometry_parameter_arrays",
           "DEFAULT_RELAXATION_TIME", "DEFAULT_FRICTION"]

DEFAULT_RELAXATION_TIME = 0.1
DEFAULT_FRICTION = 0.5


class PenaltyDefaults:
    """Default point stiffness (N/m, per geometry), dissipation (s/m) and time scale (s)."""

    __slots__ = ("stiffness", "dissipation", "time_scale")

    def __init__(self, stiffness, dissipation, time_scale):
        self.stiffness = stiffness
        self.dissipation = dissipation
        self.time_scale = time_scale


def estimate_penalty_defaults(mass, gravity_norm, penetration_allowance):
    """Critically damped penalty parameters from the penetration allowance (see module)."""
    m = mass if mass > 0.0 else 1.0
    g = gravity_norm if gravity_norm > 0.0 else 9.81
    combined = m * g / penetration_allowance
    omega = math.sqrt(combined / m)
    time_scale = 1.0 / omega
    return PenaltyDefaults(2.0 * combined, time_scale / penetration_allowance, time_scale)


def _friction(props, name):
    value = props.get_property_or_default(MATERIAL, FRICTION, None) if props else None
    if value is None:
        return DEFAULT_FRICTION
    if isinstance(value, CoulombFriction):
        return value.dynamic_friction()
    try:  # parsed (static, dynamic) pairs
        return float(value[1])
    except (TypeError, IndexError, ValueError):
        raise ValueError(f"contact parameters: geometry {name!r} has friction {value!r}; "
                         f"expected a CoulombFriction") from None


def _value(props, key, default, name, positive):
    value = props.get_property_or_default(MATERIAL, key, None) if props else None
    if value is None:
        return default
    x = float(value)
    if not (math.isfinite(x) and (x > 0.0 if positive else x >= 0.0)):
        raise ValueError(f"contact parameters: geometry {name!r} has ('material', {key!r}) = "
                         f"{value!r}; expected a finite value {'>' if positive else '>='} 0")
    return x


def geometry_parameter_arrays(inspector, ids, defaults):
    """Per-geometry arrays (k, d, τ, μ), each (n,), for the GeometryIds `ids`."""
    n = len(ids)
    k, d, tau, mu = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    for i, g in enumerate(ids):
        props = inspector.get_proximity_properties(g)
        name = inspector.get_name(g)
        k[i] = _value(props, POINT_STIFFNESS, defaults.stiffness, name, True)
        d[i] = _value(props, HC_DISSIPATION, defaults.dissipation, name, False)
        tau[i] = _value(props, RELAXATION_TIME, DEFAULT_RELAXATION_TIME, name, False)
        mu[i] = _friction(props, name)
    return k, d, tau, mu
