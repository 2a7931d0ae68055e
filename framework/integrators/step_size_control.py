"""Error norm and step-size adaptation for the error-controlled integrators.

The local error estimate ``err`` (shape (n,)) of a step from ``x0`` to ``x1`` is measured
component by component against a mixed absolute/relative tolerance, as in Hairer,
Norsett & Wanner (and Drake, whose "accuracy" plays the part of the relative tolerance):

    sc_i     = atol + rtol * max(|x0_i|, |x1_i|)
    ||err||  = max_i |err_i| / sc_i

with ``rtol = accuracy`` and, unless set otherwise, ``atol = accuracy`` (the tolerance is
absolute for states much smaller than 1 and relative for larger ones). A step is accepted
when ``||err|| <= 1``. The same norm (with ``x1 = x0``) measures Newton updates in the
implicit integrators.

The next step size follows the asymptotic error model ``err ~ C h^p`` (p is the
integrator's error-estimate order) with Drake's safety factor, growth and shrink limits
and hysteresis:

    h_new = safety * h * (1 / ||err||)^(1/p),   clamped to [min_shrink h, max_grow h]

References
----------
E. Hairer, S. P. Norsett, G. Wanner, *Solving Ordinary Differential Equations I*,
2nd ed., Springer, 1993, Sec. II.4 (automatic step size control).
"""

import math

from merganser.framework.compilation import kernel


@kernel(allocates=True, inline=False)
def scaled_error_norm(err, x0, x1, atol, rtol):
    """Weighted infinity norm of an error (or state change) vector.

    Parameters
    ----------
    err : ndarray, shape (n,)
        Error estimate or state change.
    x0, x1 : ndarray, shape (n,)
        States at the start and end of the step (pass ``x0`` twice for a change
        measured against one state).
    atol, rtol : float
        Absolute and relative tolerances (> 0).

    Returns
    -------
    float
        ``max_i |err_i| / (atol + rtol * max(|x0_i|, |x1_i|))``; 0 for n = 0 and
        ``inf`` when ``err`` holds a NaN.
    """
    norm = 0.0
    for i in range(err.shape[0]):
        a = abs(x0[i])
        b = abs(x1[i])
        scale = atol + rtol * (a if a > b else b)
        r = abs(err[i]) / scale
        if r != r:
            return math.inf
        if r > norm:
            norm = r
    return norm


class StepSizeController:
    """Drake's step-size adaptation rule (IntegratorBase::CalcAdjustedStepSize).

    Parameters
    ----------
    safety : float
        Factor (< 1) applied to the predicted optimal step.
    min_shrink, max_grow : float
        Bounds of one adaptation, as fractions of the step just attempted.
    hysteresis_low, hysteresis_high : float
        A rejected step shrinks by at least ``hysteresis_low``; a step grows only when the
        prediction exceeds ``hysteresis_high`` times the current step (avoids dithering).
    """

    def __init__(self, safety=0.9, min_shrink=0.1, max_grow=5.0, hysteresis_low=0.9,
                 hysteresis_high=1.2):
        self.safety = safety
        self.min_shrink = min_shrink
        self.max_grow = max_grow
        self.hysteresis_low = hysteresis_low
        self.hysteresis_high = hysteresis_high

    def adjust(self, err_norm, h, order, max_step_size):
        """Decide whether a step is accepted and propose the next step size.

        Parameters
        ----------
        err_norm : float
            ``scaled_error_norm`` of the step's error estimate (1 = at tolerance).
        h : float
            The step size just attempted (s).
        order : int
            Order p of the error estimate (local error ~ h^p).
        max_step_size : float
            Upper bound on the proposed step (s).

        Returns
        -------
        accepted : bool
            True when ``err_norm <= 1``.
        h_new : float
            Proposed size of the next attempt (s).
        """
        return adjust_step_size(err_norm, h, order, max_step_size, self.safety,
                                self.min_shrink, self.max_grow, self.hysteresis_low,
                                self.hysteresis_high)


@kernel(inline=False)
def adjust_step_size(err_norm, h, order, max_step_size, safety, min_shrink, max_grow,
                     hysteresis_low, hysteresis_high):
    """`StepSizeController.adjust` with the controller's settings as arguments (one
    kernel for the Python integrators and the compiled integration loop of
    ``framework.compiled_diagram``).

    Returns
    -------
    (bool, float)
        Accepted, and the proposed size of the next attempt (s).
    """
    accepted = err_norm <= 1.0
    if err_norm == 0.0:
        h_new = max_grow * h
    elif not math.isfinite(err_norm):
        h_new = min_shrink * h
    else:
        h_new = safety * h * (1.0 / err_norm) ** (1.0 / order)
    if h < h_new < hysteresis_high * h:
        h_new = h
    elif h_new < h:
        h_new = h if accepted else min(h_new, hysteresis_low * h)
    h_new = min(max(h_new, min_shrink * h), max_grow * h)
    return accepted, min(h_new, max_step_size)
