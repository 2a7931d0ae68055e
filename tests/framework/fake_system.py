"""A minimal system/context pair implementing the interface the integrators rely on.

It lets the integrator tests run on plain functions f(t, x) without the systems framework:
``FakeSystem(f, nq, nv, nz)`` with ``create_default_context()``, cached
``eval_time_derivatives`` (recomputed only when t or x changed) and
``map_velocity_to_qdot``; ``num_calcs`` counts the real evaluations of ``f``.
"""

import numpy as np


class FakeContinuousState:
    """The q/v/z split of a FakeContext's continuous state."""

    def __init__(self, nq, nv, nz):
        self._sizes = (nq, nv, nz)

    def num_q(self):
        return self._sizes[0]

    def num_v(self):
        return self._sizes[1]

    def num_z(self):
        return self._sizes[2]

    def size(self):
        return sum(self._sizes)


class FakeContext:
    """Time, accuracy and a continuous state x = [q; v; z], shape (n,)."""

    def __init__(self, system, x0, t=0.0):
        self._system = system
        self._x = np.array(x0, dtype=float)
        self._ro = self._x.view()
        self._ro.flags.writeable = False
        self._t = float(t)
        self._accuracy = None
        self.version = 0

    def get_system(self):
        return self._system

    def get_time(self):
        return self._t

    def set_time(self, t):
        self._t = float(t)
        self.version += 1

    def get_accuracy(self):
        return self._accuracy

    def set_accuracy(self, accuracy):
        self._accuracy = accuracy

    def get_continuous_state(self):
        return FakeContinuousState(*self._system.sizes)

    def get_continuous_state_vector(self):
        return self._ro

    def set_continuous_state(self, x):
        self._x[:] = x
        self.version += 1

    def set_time_and_continuous_state(self, t, x):
        self._t = t
        self._x[:] = x
        self.version += 1


class FakeSystem:
    """x' = f(t, x) with optional q' = N(q) v.

    Parameters
    ----------
    f : callable
        ``f(t, x) -> xdot``, shape (n,).
    nq, nv, nz : int
        Split of x = [q; v; z].
    velocity_to_qdot : callable, optional
        ``N(q) -> ndarray (nq, nv)``; the identity when omitted.
    """

    def __init__(self, f, nq=0, nv=0, nz=1, velocity_to_qdot=None, name="fake"):
        self._f = f
        self.sizes = (nq, nv, nz)
        self._N = velocity_to_qdot
        self._name = name
        self.num_calcs = 0
        self._cache_version = None
        self._cache_context = None
        self._cache = None

    def get_name(self):
        return self._name

    def create_default_context(self, x0=None, t=0.0):
        return FakeContext(self, np.zeros(sum(self.sizes)) if x0 is None else x0, t)

    def eval_time_derivatives(self, context):
        if self._cache_context is not context or self._cache_version != context.version:
            self.num_calcs += 1
            value = np.array(self._f(context.get_time(), context.get_continuous_state_vector()),
                             dtype=float)
            value.flags.writeable = False
            self._cache = value
            self._cache_context = context
            self._cache_version = context.version
        return self._cache

    def map_velocity_to_qdot(self, context, v):
        nq = self.sizes[0]
        if self._N is None:
            return np.array(v, dtype=float)
        return self._N(context.get_continuous_state_vector()[:nq]) @ np.asarray(v)

    def map_qdot_to_velocity(self, context, qdot):
        nq = self.sizes[0]
        if self._N is None:
            return np.array(qdot, dtype=float)
        return np.linalg.lstsq(self._N(context.get_continuous_state_vector()[:nq]), qdot,
                               rcond=None)[0]


# ---- test problems with closed-form solutions ----------------------------------------------

def exponential_decay(rate=1.0):
    """x' = -rate x, x(t) = x0 exp(-rate t): (system, exact(t, x0))."""
    system = FakeSystem(lambda t, x: -rate * x, nz=1)
    return system, lambda t, x0: x0 * np.exp(-rate * t)


def mass_spring_damper(m=1.0, k=4.0, c=0.4):
    """q'' = (-k q - c q') / m as x = [q; v]: (system, exact(t) from q=1, v=0)."""
    system = FakeSystem(lambda t, x: np.array([x[1], (-k * x[0] - c * x[1]) / m]), nq=1, nv=1,
                        nz=0)
    zeta_w = c / (2.0 * m)
    wd = np.sqrt(k / m - zeta_w**2)

    def exact(t):
        e = np.exp(-zeta_w * t)
        q = e * (np.cos(wd * t) + zeta_w / wd * np.sin(wd * t))
        v = -e * (wd + zeta_w**2 / wd) * np.sin(wd * t)
        return np.array([q, v])

    return system, exact
