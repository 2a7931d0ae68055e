"""The compiled forms of the framework's primitives (see ``protocol``), the discrete ones
(ZeroOrderHold, DiscreteTimeDelay, DiscreteTimeIntegrator, a discrete
LinearSystem/AffineSystem) with their periodic discrete update.

Each kernel repeats, operation for operation, what the block's Python calc does (the
same summation order; matrix products through the ``matvec`` kernels that the blocks
call too), so that a compiled
diagram is bit-for-bit equal to the block-by-block path. Every kernel has the protocol's
signature ``fn(t, x, u, p, work, out)``.
"""

import numpy as np

from ..compilation import kernel
from ..primitives.adder import Adder
from ..primitives.constant_vector_source import ConstantVectorSource
from ..primitives.demultiplexer import Demultiplexer
from ..primitives.discrete_time_delay import DiscreteTimeDelay
from ..primitives.discrete_time_integrator import DiscreteTimeIntegrator
from ..primitives.first_order_low_pass_filter import FirstOrderLowPassFilter
from ..primitives.gain import Gain
from ..primitives.integrator import Integrator
from ..primitives.linear_system import AffineSystem
from ..primitives.multiplexer import Multiplexer
from ..primitives.pass_through import PassThrough
from ..primitives.saturation import Saturation
from ..primitives.trajectory_source import TrajectorySource
from ..primitives.zero_order_hold import ZeroOrderHold
from ..trajectories.polynomial_eval import eval_orders
from ..matvec import matvec, matvec_add
from .protocol import CompiledForm, CompiledPort, register_compiled_form


# ---------------------------------------------------------------- copies
@kernel(inline=False)
def _copy(source, out):
    for i in range(out.shape[0]):
        out[i] = source[i]


@kernel(inline=False)
def copy_input(t, x, u, p, work, out):
    """out = u (PassThrough, Multiplexer, Integrator's derivatives)."""
    _copy(u, out)


@kernel(inline=False)
def copy_state(t, x, u, p, work, out):
    """out = x[:len(out)] (a state output port; a DiscreteTimeDelay's oldest sample)."""
    _copy(x, out)


@kernel(inline=False)
def copy_parameters(t, x, u, p, work, out):
    """out = p (ConstantVectorSource)."""
    _copy(p, out)


@kernel(inline=False)
def input_slice(t, x, u, p, work, out):
    """out = u[p[0] : p[0] + len(out)] (a Demultiplexer port; p[0] its offset)."""
    start = int(p[0])
    for i in range(out.shape[0]):
        out[i] = u[start + i]


# ---------------------------------------------------------------- arithmetic
@kernel(inline=False)
def gain_output(t, x, u, p, work, out):
    """out = k ⊙ u, k = p."""
    for i in range(out.shape[0]):
        out[i] = p[i] * u[i]


@kernel(inline=False)
def adder_output(t, x, u, p, work, out):
    """out = u0 + u1 + ... (left to right), the inputs concatenated in u."""
    n = out.shape[0]
    k = u.shape[0] // n if n else 0
    if k == 0:
        for i in range(n):
            out[i] = 0.0
    elif k == 1:
        for i in range(n):
            out[i] = u[i]
    else:
        for i in range(n):
            out[i] = u[i] + u[n + i]
        for j in range(2, k):
            for i in range(n):
                out[i] += u[j * n + i]


@kernel(inline=False)
def saturation_output(t, x, u, p, work, out):
    """out = clip(u, p[:n], p[n:]) with numpy's clip rule (a NaN input stays NaN)."""
    n = out.shape[0]
    for i in range(n):
        v = u[i]
        lo = p[i]
        if not (np.isnan(v) or v > lo):
            v = lo
        hi = p[n + i]
        if not (np.isnan(v) or v < hi):
            v = hi
        out[i] = v


@kernel(inline=False)
def low_pass_derivatives(t, x, u, p, work, out):
    """ż = (u − z) / τ, τ = p."""
    for i in range(out.shape[0]):
        out[i] = (u[i] - x[i]) / p[i]


# ---------------------------------------------------------------- affine systems
# p = [has_B, has_f0, has_D, has_y0, A (n*n), B (n*m), f0 (n), C (k*n), D (k*m), y0 (k)]
_FLAGS = 4


@kernel(inline=False)
def _affine_into(out, M, N, offset, has_N, has_offset, x, u):
    """out = M x (+ N u) (+ offset), as AffineSystem._affine_into computes it."""
    if x.shape[0]:
        matvec(M, x, out)
        if has_N:
            matvec_add(N, u, out)
    elif has_N:
        matvec(N, u, out)
    else:
        for i in range(out.shape[0]):
            out[i] = 0.0
    if has_offset:
        for i in range(out.shape[0]):
            out[i] += offset[i]


@kernel(inline=False)
def affine_derivatives(t, x, u, p, work, out):
    """ẋ = A x + B u + f0, or x[n+1] = A x + B u + f0 for a discrete system (n = len(x),
    m = len(u))."""
    n, m = x.shape[0], u.shape[0]
    o = _FLAGS
    A = p[o:o + n * n].reshape((n, n))
    o += n * n
    B = p[o:o + n * m].reshape((n, m))
    o += n * m
    _affine_into(out, A, B, p[o:o + n], p[0] != 0.0, p[1] != 0.0, x, u)


@kernel(inline=False)
def affine_output(t, x, u, p, work, out):
    """y = C x + D u + y0 (k = len(y))."""
    n, m, k = x.shape[0], u.shape[0], out.shape[0]
    o = _FLAGS + n * n + n * m + n
    C = p[o:o + k * n].reshape((k, n))
    o += k * n
    D = p[o:o + k * m].reshape((k, m))
    o += k * m
    _affine_into(out, C, D, p[o:o + k], p[2] != 0.0, p[3] != 0.0, x, u)


def _affine_form(system):
    constants = np.concatenate([
        [float(system._has_B), float(system._has_f0), float(system._has_D),
         float(system._has_y0)],
        system.A().ravel(), system.B().ravel(), system.f0(), system.C().ravel(),
        system.D().ravel(), system.y0()])
    constants.flags.writeable = False
    outputs = (CompiledPort(affine_output),) if system.num_output_ports() else ()
    stateful = system.num_states() > 0
    discrete = system.time_period() != 0.0
    return CompiledForm(outputs=outputs,
                        derivatives=affine_derivatives if stateful and not discrete else None,
                        discrete_update=affine_derivatives if stateful and discrete else None,
                        parameters=lambda context: constants)


# ---------------------------------------------------------------- the other primitives
def _constants(values):
    values = np.array(values, dtype=float).reshape(-1)
    values.flags.writeable = False
    return lambda context: values


def _gain_form(system):
    return CompiledForm(outputs=(gain_output,), parameters=_constants(system.get_gain_vector()))


def _adder_form(system):
    return CompiledForm(outputs=(adder_output,))


def _integrator_form(system):
    return CompiledForm(outputs=(copy_state,), derivatives=copy_input)


def _constant_source_form(system):
    index = system._param
    return CompiledForm(outputs=(copy_parameters,),
                        parameters=lambda context: context.get_numeric_parameter(index))


def _multiplexer_form(system):
    return CompiledForm(outputs=(copy_input,))


def _demultiplexer_form(system):
    offsets = system._offsets[:-1]
    return CompiledForm(outputs=tuple(CompiledPort(input_slice, i) for i in range(len(offsets))),
                        parameters=_constants(offsets))


def _saturation_form(system):
    if system._min is None:
        return None             # limits from input ports: the Python path checks them
    return CompiledForm(outputs=(saturation_output,),
                        parameters=_constants(np.concatenate([system._min, system._max])))


def _low_pass_form(system):
    return CompiledForm(outputs=(copy_state,), derivatives=low_pass_derivatives,
                        parameters=_constants(system.get_time_constants_vector()))


@kernel(allocates=True, inline=False)
def trajectory_output(t, x, u, p, work, out, arrays):
    """[value; derivatives up to order p[0]] of a PiecewisePolynomial at t (zero
    derivatives outside its time range when p[1])."""
    breaks, stack, counts = arrays
    k = int(p[0])
    inside = eval_orders(breaks, stack, counts, t, 0, k, out)
    if k and p[1] != 0.0 and not inside:
        rows = out.shape[0] // (k + 1)
        for i in range(rows, out.shape[0]):
            out[i] = 0.0


def _trajectory_form(system):
    trajectory = system._trajectories[0]
    if system._stacked is None or trajectory.get_number_of_segments() == 0:
        return None             # not a PiecewisePolynomial (or empty): evaluated in Python
    k = system._k
    return CompiledForm(outputs=(trajectory_output,),
                        parameters=_constants([k, float(system._zero_beyond)]),
                        arrays=lambda context: trajectory._evaluation_stack(k))


@kernel(inline=False)
def delay_update(t, x, u, p, work, out):
    """The buffer x (oldest sample first) shifted by one sample, u appended."""
    n, m = u.shape[0], x.shape[0]
    for i in range(m - n):
        out[i] = x[n + i]
    for i in range(n):
        out[m - n + i] = u[i]


@kernel(inline=False)
def euler_update(t, x, u, p, work, out):
    """x[n+1] = x[n] + h u[n], h = p[0] (DiscreteTimeIntegrator)."""
    for i in range(out.shape[0]):
        out[i] = x[i] + p[0] * u[i]


def _discrete_integrator_form(system):
    return CompiledForm(outputs=(copy_state,), discrete_update=euler_update,
                        parameters=_constants([system.time_step()]))


def _zero_order_hold_form(system):
    if system._abstract:
        return None
    return CompiledForm(outputs=(copy_state,), discrete_update=copy_input)


def _discrete_time_delay_form(system):
    if system._abstract:
        return None
    return CompiledForm(outputs=(copy_state,), discrete_update=delay_update)


def _pass_through_form(system):
    return None if system.is_abstract() else CompiledForm(outputs=(copy_input,))


for _cls, _factory in ((AffineSystem, _affine_form), (Gain, _gain_form), (Adder, _adder_form),
                       (Integrator, _integrator_form),
                       (ConstantVectorSource, _constant_source_form),
                       (Multiplexer, _multiplexer_form), (Demultiplexer, _demultiplexer_form),
                       (Saturation, _saturation_form), (PassThrough, _pass_through_form),
                       (FirstOrderLowPassFilter, _low_pass_form),
                       (TrajectorySource, _trajectory_form),
                       (ZeroOrderHold, _zero_order_hold_form),
                       (DiscreteTimeDelay, _discrete_time_delay_form),
                       (DiscreteTimeIntegrator, _discrete_integrator_form)):
    register_compiled_form(_cls, _factory)
del _cls, _factory
