"""PidController: proportional-integral-derivative state feedback (Drake's PidController)."""

import numpy as np

from merganser.framework import LeafSystem
from merganser.framework.matvec import matvec

from ._validation import as_matrix, as_vector

_ORDERS = {
    3: ("kp", "ki", "kd"),
    4: ("state_projection", "kp", "ki", "kd"),
    5: ("state_projection", "output_projection", "kp", "ki", "kd"),
}


def _parse_arguments(args, kwargs):
    """Map Drake's three positional forms (and keywords) to one dict of arguments."""
    fn = "PidController"
    if args and len(args) not in _ORDERS:
        raise TypeError(
            f"{fn}: expected (kp, ki, kd), (state_projection, kp, ki, kd) or (state_projection, "
            f"output_projection, kp, ki, kd), got {len(args)} positional arguments")
    names = _ORDERS.get(len(args), ())
    values = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in _ORDERS[5]:
            raise TypeError(f"{fn}: unexpected keyword argument {key!r}; expected one of "
                            f"{', '.join(_ORDERS[5])}")
        if key in values:
            raise TypeError(f"{fn}: {key} given both by position and by keyword")
        values[key] = value
    missing = [k for k in ("kp", "ki", "kd") if k not in values]
    if missing:
        raise TypeError(f"{fn}: missing gain(s) {', '.join(missing)}")
    return values


class PidController(LeafSystem):
    """A PID controller on the projected state error (Drake's PidController).

    ::

        estimated_state ──▶ ┌───────────────┐
                            │ PidController │ ──▶ control
          desired_state ──▶ └───────────────┘

    With the measured controlled state [q_c; v_c] = P_x x (P_x the state projection,
    shape (2 n, n_x)), the desired state [q_d; v_d] (2 n,) and the integral state z (n,)::

        ż = q_d − q_c
        control = P_y (kp ⊙ (q_d − q_c) + kd ⊙ (v_d − v_c) + ki ⊙ z)

    with P_y the output projection (shape (n_y, n)). ``control`` has direct feedthrough
    from both inputs. The integral starts at zero (`set_integral_value` changes it). It
    is continuous state only when some ki is nonzero: with ki = 0 it cannot affect the
    output, and leaving it out (Drake declares it regardless) spares the simulator
    integrating it, e.g. between the updates of a discrete plant.

    Construction follows Drake's three forms::

        PidController(kp, ki, kd)
        PidController(state_projection, kp, ki, kd)
        PidController(state_projection, output_projection, kp, ki, kd)

    (any argument may also be given by keyword).

    Parameters
    ----------
    kp, ki, kd : array_like, shape (n,)
        Proportional, integral and derivative gains (a scalar is n = 1).
    state_projection : array_like, shape (2 n, n_x), optional
        P_x; the identity (n_x = 2 n) when omitted.
    output_projection : array_like, shape (n_y, n), optional
        P_y; the identity (n_y = n) when omitted.

    Raises
    ------
    ValueError
        If the gains differ in size or a projection has the wrong shape.
    """

    def __init__(self, *args, **kwargs):
        super().__init__()
        fn = "PidController"
        values = _parse_arguments(args, kwargs)
        kp = as_vector(fn, "kp", values["kp"])
        ki = as_vector(fn, "ki", values["ki"])
        kd = as_vector(fn, "kd", values["kd"])
        if not kp.size == ki.size == kd.size:
            raise ValueError(f"{fn}: gains must have equal sizes, got |kp| = {kp.size}, "
                             f"|ki| = {ki.size}, |kd| = {kd.size}")
        n = kp.size
        P_x = values.get("state_projection")
        P_x = np.eye(2 * n) if P_x is None else as_matrix(fn, "state_projection", P_x,
                                                         (2 * n, None))
        P_y = values.get("output_projection")
        P_y = np.eye(n) if P_y is None else as_matrix(fn, "output_projection", P_y, (None, n))
        self._kp, self._ki, self._kd = kp, ki, kd
        self._n = n
        self._P_x, self._P_y = P_x, P_y
        for a in (kp, ki, kd, P_x, P_y):
            a.flags.writeable = False
        self._project_state = not (P_x.shape[1] == 2 * n and np.array_equal(P_x, np.eye(2 * n)))
        self._project_output = not (P_y.shape[0] == n and np.array_equal(P_y, np.eye(n)))
        self._error = np.zeros(2 * n)
        self._u = np.zeros(n)
        self._has_integral = bool(np.any(ki))

        if self._has_integral:
            self.declare_continuous_state(n)
        self._estimated = self.declare_vector_input_port("estimated_state", P_x.shape[1])
        self._desired = self.declare_vector_input_port("desired_state", 2 * n)
        self._control = self.declare_vector_output_port(
            "control", P_y.shape[0], self._calc_control,
            [self.xc_ticket(), self.input_port_ticket(0), self.input_port_ticket(1)])

    # ---- accessors -----------------------------------------------------------------------------
    def get_input_port_estimated_state(self):
        """Input x (n_x,), the full estimated state."""
        return self._estimated

    def get_input_port_desired_state(self):
        """Input [q_d; v_d] (2 n,)."""
        return self._desired

    def get_output_port_control(self):
        """Output control (n_y,)."""
        return self._control

    def get_Kp_vector(self):
        """kp, shape (n,), read-only."""
        return self._kp

    def get_Ki_vector(self):
        """ki, shape (n,), read-only."""
        return self._ki

    def get_Kd_vector(self):
        """kd, shape (n,), read-only."""
        return self._kd

    def _singleton(self, gains, name):
        if gains.size != 1:
            raise RuntimeError(f"PidController.get_{name}_singleton: the controller has "
                               f"{gains.size} gains, expected 1")
        return float(gains[0])

    def get_Kp_singleton(self):
        return self._singleton(self._kp, "Kp")

    def get_Ki_singleton(self):
        return self._singleton(self._ki, "Ki")

    def get_Kd_singleton(self):
        return self._singleton(self._kd, "Kd")

    def get_state_projection(self):
        """P_x, shape (2 n, n_x), read-only."""
        return self._P_x

    def get_output_projection(self):
        """P_y, shape (n_y, n), read-only."""
        return self._P_y

    def set_integral_value(self, context, value):
        """Set the integral state z (n,) in ``context``; raises when every ki is zero (there
        is no integral state then)."""
        ctx = self._context_from(context, "set_integral_value")
        if not self._has_integral:
            raise RuntimeError("PidController.set_integral_value: every ki is zero, so the "
                               "controller has no integral state")
        ctx.set_continuous_state(as_vector("set_integral_value", "value", value, self._n))

    # ---- computation ---------------------------------------------------------------------------
    def _state_error(self, context):
        """[q_d − q_c; v_d − v_c] (2 n,), written into a scratch array."""
        x = self._estimated.eval(context)
        x_d = self._desired.eval(context)
        e = self._error
        if self._project_state:
            matvec(self._P_x, x, e)
            np.subtract(x_d, e, out=e)
        else:
            np.subtract(x_d, x, out=e)
        return e

    def do_calc_time_derivatives(self, context, derivatives):
        if self._has_integral:
            derivatives.get_mutable_value()[:] = self._state_error(context)[:self._n]

    def _calc_control(self, context, output):
        e = self._state_error(context)
        n = self._n
        u = self._u if self._project_output else output.get_mutable_value()
        np.multiply(self._kp, e[:n], out=u)
        u += self._kd * e[n:]
        if self._has_integral:
            u += self._ki * context.get_continuous_state_vector()
        if self._project_output:
            matvec(self._P_y, u, output.get_mutable_value())
