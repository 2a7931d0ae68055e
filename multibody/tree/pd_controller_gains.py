"""PdControllerGains: proportional and derivative gains of a PD-controlled actuator."""

from __future__ import annotations

import math

__all__ = ["PdControllerGains"]


class PdControllerGains:
    """Gains of the PD controller of a joint actuator (Drake's ``PdControllerGains``).

    The controlled actuation is u = clamp(-p (q - q_d) - d (v - v_d) + u_ff, -e, e), applied
    implicitly by a discrete plant's step (`JointActuator.set_controller_gains`).

    Parameters
    ----------
    p : float
        Proportional gain (N·m/rad or N/m), >= 0.
    d : float
        Derivative gain (N·m·s/rad or N·s/m), >= 0.
    """

    __slots__ = ("p", "d")

    def __init__(self, p: float = 0.0, d: float = 0.0):
        for name, value in (("p", p), ("d", d)):
            value = float(value)
            if not (math.isfinite(value) and value >= 0.0):
                raise ValueError(
                    f"PdControllerGains: {name} must be finite and >= 0, got {value!r}")
        self.p = float(p)
        self.d = float(d)

    def __eq__(self, other):
        return isinstance(other, PdControllerGains) and (self.p, self.d) == (other.p, other.d)

    def __repr__(self):
        return f"PdControllerGains(p={self.p!r}, d={self.d!r})"
