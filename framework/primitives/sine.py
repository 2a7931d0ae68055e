"""Sine: a sinusoid of time or of its input, with two derivatives (Drake's Sine)."""

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import select_ports
from ._validation import as_size, as_vector


class Sine(LeafSystem):
    """Outputs y = a sin(ω s + φ) and its first two derivatives w.r.t. s.

    ::

                   ┌──────┐ ──▶ y0   (a sin(ω s + φ))
        (u0) ───▶  │ Sine │ ──▶ y1   (a ω cos(ω s + φ))
                   └──────┘ ──▶ y2   (-a ω² sin(ω s + φ))

    s is the time t when ``is_time_based`` (no input port), else the input ``u0``
    (element-wise); the outputs are then direct feedthrough of ``u0``.

    Parameters
    ----------
    amplitude, frequency, phase : float or array_like, shape (size,)
        a, ω (rad/s) and φ (rad), per element; scalars apply to every element.
    size : int, optional
        Output size; implied by vector arguments (default 1).
    is_time_based : bool
        True: s = t; False: s = u0.
    amplitudes, frequencies, phases : array_like, shape (size,), optional
        pydrake's keywords for the vector form; each replaces its singular.
    """

    @lists_valid_keywords
    def __init__(self, amplitude=None, frequency=None, phase=None, size=None,
                 is_time_based=True, *, amplitudes=None, frequencies=None, phases=None):
        super().__init__()
        if isinstance(size, bool):      # pydrake's vector form: (a, w, phi, is_time_based)
            size, is_time_based = None, size
        args = []
        for one, many, name in ((amplitude, amplitudes, "amplitude"),
                                (frequency, frequencies, "frequency"), (phase, phases, "phase")):
            if (one is None) == (many is None):
                raise TypeError(f"Sine: give exactly one of {name} and {name}s")
            args.append(one if many is None else many)
        amplitude, frequency, phase = args
        if size is None:
            sizes = [np.size(x) for x in (amplitude, frequency, phase) if np.ndim(x) > 0]
            size = sizes[0] if sizes else 1
        size = as_size("Sine", "size", size)
        self._a = as_vector("Sine", "amplitude", amplitude, size)
        self._w = as_vector("Sine", "frequency", frequency, size)
        self._phi = as_vector("Sine", "phase", phase, size)
        self._time_based = bool(is_time_based)
        if self._time_based:
            prereqs = [self.time_ticket()]
        else:
            self.declare_vector_input_port("u0", size)
            prereqs = [self.input_port_ticket(0)]
        self.declare_vector_output_port("y0", size, self._calc_y, prereqs)
        self.declare_vector_output_port("y1", size, self._calc_ydot, prereqs)
        self.declare_vector_output_port("y2", size, self._calc_yddot, prereqs)

    def amplitude_vector(self):
        return self._a.copy()

    def frequency_vector(self):
        return self._w.copy()

    def phase_vector(self):
        return self._phi.copy()

    def is_time_based(self):
        return self._time_based

    def _angle(self, context):
        s = context.get_time() if self._time_based else self.get_input_port(0).eval(context)
        return self._w * s + self._phi

    def _calc_y(self, context, output):
        output.set_value(self._a * np.sin(self._angle(context)))

    def _calc_ydot(self, context, output):
        output.set_value(self._a * self._w * np.cos(self._angle(context)))

    def _calc_yddot(self, context, output):
        output.set_value(-self._a * self._w ** 2 * np.sin(self._angle(context)))

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: no state; for an input-based sine D stacks the diagonal
        derivatives of y0, y1, y2 w.r.t. u0."""
        n = self._a.size
        m = 0 if self._time_based else n
        D = np.zeros((3 * n, m))
        if not self._time_based:
            angle = self._angle(context)
            aw = self._a * self._w
            D[:n] = np.diag(aw * np.cos(angle))
            D[n:2 * n] = np.diag(-aw * self._w * np.sin(angle))
            D[2 * n:] = np.diag(-aw * self._w ** 2 * np.cos(angle))
        matrices = (np.zeros((0, 0)), np.zeros((0, m)), np.zeros((3 * n, 0)), D)
        return select_ports(self, matrices, input_port_index, output_port_index)
