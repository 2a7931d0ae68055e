"""The compiled integration loop: a Simulator's plain integration (no events) of a
compiled diagram with an explicit Runge-Kutta integrator, in one compiled call.

`explicit_runge_kutta_loop` is the template of that loop: ``codegen`` copies its source
into each generated module, where ``time_derivatives`` is the wiring's compiled function
(a numba function cannot be cached when it takes another as an argument). It repeats,
step for step, ``Simulator.advance_to``'s plain-integration loop around
``IntegratorBase.integrate_no_further_than_time`` and ``RungeKuttaIntegrator._do_step``:
the same stages, the same step-size control (``adjust_step_size``, the kernel the Python
controller calls), so that the trajectory is bit-for-bit the Python loop's. Whatever the
compiled loop does not handle (a step below the minimum step size, a non-finite error
estimate or state) it hands back before that step, with the state and the statistics
as they were when the step began, and the Simulator takes that step in Python.

`run_compiled_integration` is the Simulator's side: it checks that the loop applies,
passes the integrator's settings and arrays, and writes the statistics back.
"""

import functools
import inspect
import math

import numpy as np

from ..context import DiagramContext
from ..integrators.integrator_base import (INITIAL_STEP_FRACTION, SMALLEST_RELATIVE_STEP,
                                          STRETCH_FACTOR)
from ..integrators.runge_kutta import RungeKuttaIntegrator
from ..integrators.step_size_control import StepSizeController

__all__ = ["explicit_runge_kutta_loop", "loop_source", "run_compiled_integration", "applies",
           "integrator_arrays", "write_back_statistics", "call_compiled"]

# settings: [max_step, ideal_h, initial_target, requested_min, rtol, atol, order, safety,
#            min_shrink, max_grow, hysteresis_low, hysteresis_high, error_control, fsal,
#            have_k0, stretch, smallest_relative_step, single_step]
# stats: [steps, evaluations, error shrinkages, prev_h, largest_h, smallest_adapted_h,
#         initial_h, t_step_start, ideal_h, end_derivatives_valid, simulator steps]
NUM_SETTINGS, NUM_STATS = 18, 11


def explicit_runge_kutta_loop(t, x, p, w, arrays, t_final, A, b, e, c, K, x0, x1, err, settings,
                              stats):  # pragma: no cover (compiled from generated modules)
    """Integrate from (t, x) to t_final (one step only when settings[17]); returns (time
    reached, 0 done | 1 Python steps).

    x is the root context's continuous state (written in place); K (s, n), x0, x1, err
    (n,) the integrator's arrays; settings and stats as laid out in the module.
    """
    n = x.shape[0]
    s = b.shape[0]
    max_step = settings[0]
    ideal = settings[1]
    rtol, atol, order = settings[4], settings[5], settings[6]
    error_control = settings[12] != 0.0
    fsal = settings[13] != 0.0
    have_k0 = settings[14] != 0.0
    stretch, smallest_rel = settings[15], settings[16]
    last = s - 1 if fsal else s
    saved = np.empty(NUM_STATS_LITERAL)
    while t < t_final:
        t0 = t
        dt = t_final - t0
        target = t_final
        if dt > stretch * max_step:
            dt = max_step
            target = t0 + dt
        for i in range(n):
            x0[i] = x[i]
        for i in range(stats.shape[0]):
            saved[i] = stats[i]
        saved_ideal = ideal
        saved_k0 = have_k0
        stats[7] = t0
        bail = False
        working_min = 0.0
        retry = False
        if error_control:
            if not ideal > 0.0:
                ideal = settings[2] if settings[2] > 0.0 else max_step
            if ideal > max_step:
                ideal = max_step
            working_min = max(settings[3], smallest_rel * max(1.0, abs(t0)))
        while True:
            if not error_control:
                h = dt
            elif ideal * stretch >= dt:
                h = dt
            else:
                h = ideal if dt - ideal >= working_min else 0.5 * dt
                if h < working_min:
                    bail = True
                    break
            landing = h == dt
            t1 = target if landing else t0 + h
            # ---- one Runge-Kutta step from (t0, x0)
            if not retry and not have_k0:
                time_derivatives(t0, x, p, w, K[0], arrays)
                stats[1] += 1.0
            for i in range(1, last):
                combine_stages(x, x0, h, A[i], K, i)
                time_derivatives(t0 + c[i] * h, x, p, w, K[i], arrays)
                stats[1] += 1.0
            want_error = error_control
            end_valid = False
            if not fsal:
                finish_step(x1, x, err, x0, h, b, e, K, last, s, want_error)
            else:
                combine_stages(x1, x0, h, b, K, last)
                for i in range(n):
                    x[i] = x1[i]
                if want_error:
                    time_derivatives(t1, x, p, w, K[last], arrays)
                    stats[1] += 1.0
                    end_valid = True
                    for i in range(n):
                        acc = 0.0
                        for j in range(s):
                            acc += e[j] * K[j, i]
                        err[i] = 0.0 + h * acc
            t = t1
            if not error_control:
                adapted = False
                break
            norm = scaled_error_norm(err, x0, x1, atol, rtol)
            if not math.isfinite(norm):
                bail = True
                break
            accepted, h_new = adjust_step_size(norm, h, order, max_step, settings[7],
                                               settings[8], settings[9], settings[10],
                                               settings[11])
            if accepted:
                if landing and h < ideal:
                    h_new = max(h_new, ideal)
                ideal = h_new
                adapted = not landing
                break
            for i in range(n):
                x[i] = x0[i]
            t = t0
            retry = True
            stats[2] += 1.0
            ideal = h_new
        finite = True
        if not bail:
            for i in range(n):
                if not math.isfinite(x[i]):
                    finite = False
        if bail or not finite:
            for i in range(n):
                x[i] = x0[i]
            for i in range(stats.shape[0]):
                stats[i] = saved[i]
            stats[8] = saved_ideal
            stats[9] = 1.0 if saved_k0 else 0.0
            return t0, 1
        # ---- the step is taken: the integrator's statistics (_record_step)
        stats[0] += 1.0
        stats[3] = h
        if not h <= stats[4]:
            stats[4] = h
        if adapted and not h >= stats[5]:
            stats[5] = h
        if stats[0] == 1.0:
            stats[6] = h
        stats[8] = ideal
        stats[10] += 1.0
        have_k0 = fsal and end_valid
        if have_k0:
            for i in range(n):
                K[0, i] = K[last, i]
        stats[9] = 1.0 if end_valid else 0.0
        if settings[17] != 0.0:
            break
    return t, 0


@functools.lru_cache(maxsize=None)
def loop_source():
    """The template's source, for a generated module (numba-compilable there)."""
    source = inspect.getsource(explicit_runge_kutta_loop)
    source = source.replace("  # pragma: no cover (compiled from generated modules)", "")
    return source.replace("NUM_STATS_LITERAL", str(NUM_STATS))


def applies(simulator, plan):
    """True when the compiled loop can run ``simulator``'s integrator (an explicit
    Runge-Kutta scheme without dense output) for installed ``plan``."""
    integrator = simulator._integrator
    return (plan is not None and isinstance(integrator, RungeKuttaIntegrator)
            and type(integrator)._do_step is RungeKuttaIntegrator._do_step
            and type(integrator._controller).adjust is StepSizeController.adjust
            and integrator._dense is None)


def integrator_arrays(simulator, ctx, single_step):
    """The settings and statistics arrays of ``simulator``'s integrator for the compiled
    loop, and whether K[0] holds the derivatives at the context's state."""
    integrator = simulator._integrator
    entry = ctx.deriv_entry
    have_k0 = entry.valid and not ctx._deriv_from_leaf
    if have_k0:
        integrator._K[0] = entry.value
    controller = integrator._controller
    rtol = integrator._accuracy_in_use
    settings = np.array([
        integrator._max_step, integrator._ideal_h,
        integrator._initial_step_target or INITIAL_STEP_FRACTION * integrator._max_step,
        integrator._requested_min_step, rtol,
        rtol if integrator._atol is None else integrator._atol,
        integrator.error_estimate_order, controller.safety, controller.min_shrink,
        controller.max_grow, controller.hysteresis_low, controller.hysteresis_high,
        not (integrator._fixed_step_mode or not integrator._supports_error),
        integrator.fsal, have_k0, STRETCH_FACTOR, SMALLEST_RELATIVE_STEP, single_step],
        dtype=float)
    stats = np.array([
        integrator._num_steps, integrator._num_derivative_evaluations,
        integrator._num_shrinkages_error, integrator._prev_h, integrator._largest_h,
        integrator._smallest_adapted_h, integrator._initial_h_taken,
        integrator._t_step_start, integrator._ideal_h, float(have_k0), 0.0], dtype=float)
    tableau = (integrator._A, integrator._b, integrator._e,
               np.asarray(integrator._c, dtype=float), integrator._K, integrator._x0,
               integrator._x1, integrator._err)
    return settings, stats, tableau


def write_back_statistics(simulator, ctx, stats, t):
    """Copy the compiled loop's statistics into the integrator, set the context's time
    (its state was written in place) and mark the derivatives in K[0] current when
    stats[9] says they are."""
    integrator = simulator._integrator
    integrator._num_steps = int(stats[0])
    integrator._num_derivative_evaluations = int(stats[1])
    integrator._num_shrinkages_error = int(stats[2])
    (integrator._prev_h, integrator._largest_h, integrator._smallest_adapted_h,
     integrator._initial_h_taken, integrator._t_step_start,
     integrator._ideal_h) = (float(v) for v in stats[3:9])
    ctx._set_time_after_writing_xc(t)
    if stats[9]:        # the derivatives at the final state (FSAL) are current
        entry = ctx.deriv_entry
        entry.value[:] = integrator._K[0]
        entry.valid = True
        ctx._deriv_from_leaf = False


#: id -> generated loop that has run (compiled) once (kept, so that its id is not reused)
_ran: dict = {}


def call_compiled(plan, ctx, loop, args):
    """``loop(*args)``; None (and the context block by block, with a warning) when its
    first call, which compiles it, fails (a form that numba rejects)."""
    if id(loop) in _ran:
        return loop(*args)
    try:
        result = loop(*args)
    except Exception as error:         # noqa: BLE001 (any compilation failure)
        plan.give_up(ctx, error)
        return None
    _ran[id(loop)] = loop
    return result


def run_compiled_integration(simulator, boundary_time):
    """Advance ``simulator``'s context toward ``boundary_time`` with the compiled loop.

    Returns
    -------
    bool or None
        None when the loop does not apply (no compiled diagram installed and compiled,
        not an explicit Runge-Kutta integrator, dense output); True when the context
        reached ``boundary_time``; False when the Simulator must take the next step in
        Python (the context is where that step begins).
    """
    ctx = simulator._context
    plan = getattr(ctx, "_calc_xcdot", None) if isinstance(ctx, DiagramContext) else None
    if not applies(simulator, getattr(plan, "prepare_loop", None) and plan):
        return None
    integrator = simulator._integrator
    if not integrator._initialized:
        integrator.initialize()
    if integrator._xc_in_place is None:
        return None
    advance = plan.prepare_loop(ctx)
    if advance is None:
        return None
    advance = advance.explicit_runge_kutta_loop
    root = ctx._root
    settings, stats, tableau = integrator_arrays(simulator, ctx, False)
    args = (root.time, root.xc, plan._p, plan._w, plan._arrays, float(boundary_time),
            *tableau, settings, stats)
    result = call_compiled(plan, ctx, advance, args)
    if result is None:
        return None
    t, code = result
    simulator._num_steps += int(stats[10])
    write_back_statistics(simulator, ctx, stats, t)
    return code == 0
