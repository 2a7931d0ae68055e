"""Framework overhead: a PID-controlled 2nd-order plant, merganser against Drake and scipy.

The plant x'' = -4 x - 0.8 x' + u under PID control (kp = 10, ki = 5, kd = 3, reference
1) is simulated for 10 s, built two ways:

- ``pid``: a LinearSystem plant (y = [x, x']) and a PidController fed the constant
  desired state [1, 0] (a ConstantVectorSource);
- ``blocks``: the same loop from primitives (LinearSystem plant, ConstantVectorSource,
  MatrixGain, Adder, Integrator).

Rows, each the wall time per time-derivative evaluation (wall time of the 10 s run over
the integrator's derivative evaluations), medians over repeated, interleaved runs, all
measured in this process:

(a) merganser vs pydrake (Drake's C++ primitives, the ``bench`` extra), both with
    runge_kutta3 at accuracy 1e-3 (max step 0.1), for ``pid`` and ``blocks``
    (goal <= 1.0x);
(b) merganser with runge_kutta5 vs scipy.integrate.solve_ivp (RK45, rtol 1e-3) on a
    hand-written right-hand side (goal <= 0.5x);
(c) with events, the wall time of the whole 10 s run (``Simulator.advance_to``), merganser
    vs pydrake: ``zoh``, the ``pid`` loop with the control held by a ZeroOrderHold
    (0.01 s) and the plant output logged every 0.01 s (a VectorLogSink), runge_kutta3;
    ``discrete``, the loop in discrete time (h = 1 ms: the plant's exact zero-order-hold
    discretization and a discrete PI-D controller, both discrete LinearSystems, fed
    through a Multiplexer), logged every step of 1 ms. merganser runs these in its
    compiled simulation loop (``framework.compiled_diagram.event_loop``).

merganser runs with its default evaluation, the compiled diagram (one generated numba
function for the diagram's derivatives, ``framework.compiled_diagram``), and block by
block (``unfuse_compiled_dynamics(context)``: the cost of Python-level port evaluation
on every block). The final states are printed to show that all computed the same
trajectory.

Run: ``.venv/bin/python benchmarks/bench_pid_framework.py``
"""

import statistics
import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.linalg import expm

import merganser.controllers as mc
import merganser.framework as mf
from merganser.framework.compiled_diagram import (compile_diagram_dynamics,
                                                  compiled_dynamics_status,
                                                  unfuse_compiled_dynamics)

try:
    import pydrake.systems.analysis as da
    import pydrake.systems.controllers as dc
    import pydrake.systems.framework as dfw
    import pydrake.systems.primitives as dp
except ImportError:          # the bench extra is not installed
    da = None

KP, KI, KD = 10.0, 5.0, 3.0
T_FINAL = 10.0
REPEATS = 7
A = [[0.0, 1.0], [-4.0, -0.8]]
B = [[0.0], [1.0]]


def _builder(builder_class):
    """(add, connect, build) of a merganser or a pydrake DiagramBuilder."""
    b = builder_class()
    if hasattr(b, "AddSystem"):
        return b.AddSystem, b.Connect, b.Build
    return b.add_system, b.connect, b.build


def build_blocks(builder_class, prim):
    """Plant y = [x, x'], PID u = kp e + ki ∫e - kd x' with e = 1 - x, from primitives."""
    add, connect, build = _builder(builder_class)
    plant = add(prim.LinearSystem(A, B, np.eye(2), np.zeros((2, 1))))
    reference = add(prim.ConstantVectorSource([1.0]))
    minus_x = add(prim.MatrixGain(np.array([[-1.0, 0.0]])))
    error = add(prim.Adder(2, 1))
    integral = add(prim.Integrator(1))
    p_term = add(prim.MatrixGain(np.array([[KP]])))
    i_term = add(prim.MatrixGain(np.array([[KI]])))
    d_term = add(prim.MatrixGain(np.array([[0.0, -KD]])))
    control = add(prim.Adder(3, 1))
    connect(plant.get_output_port(0), minus_x.get_input_port(0))
    connect(reference.get_output_port(0), error.get_input_port(0))
    connect(minus_x.get_output_port(0), error.get_input_port(1))
    connect(error.get_output_port(0), integral.get_input_port(0))
    connect(error.get_output_port(0), p_term.get_input_port(0))
    connect(integral.get_output_port(0), i_term.get_input_port(0))
    connect(plant.get_output_port(0), d_term.get_input_port(0))
    connect(p_term.get_output_port(0), control.get_input_port(0))
    connect(i_term.get_output_port(0), control.get_input_port(1))
    connect(d_term.get_output_port(0), control.get_input_port(2))
    connect(control.get_output_port(0), plant.get_input_port(0))
    return build(), plant


def build_pid(builder_class, prim, pid_class):
    """The same loop with a PidController."""
    add, connect, build = _builder(builder_class)
    plant = add(prim.LinearSystem(A, B, np.eye(2), np.zeros((2, 1))))
    pid = add(pid_class([KP], [KI], [KD]))
    desired = add(prim.ConstantVectorSource([1.0, 0.0]))
    connect(plant.get_output_port(0), pid.get_input_port_estimated_state())
    connect(desired.get_output_port(0), pid.get_input_port_desired_state())
    connect(pid.get_output_port_control(), plant.get_input_port(0))
    return build(), plant


H_DISCRETE = 1e-3


def build_zoh(builder_class, prim, pid_class, log):
    """The ``pid`` loop with the control held every 0.01 s, the plant output logged every
    0.01 s."""
    b = builder_class()
    add, connect, build = _builder_of(b)
    plant = add(prim.LinearSystem(A, B, np.eye(2), np.zeros((2, 1))))
    pid = add(pid_class([KP], [KI], [KD]))
    desired = add(prim.ConstantVectorSource([1.0, 0.0]))
    hold = add(prim.ZeroOrderHold(0.01, 1))
    connect(plant.get_output_port(0), pid.get_input_port_estimated_state())
    connect(desired.get_output_port(0), pid.get_input_port_desired_state())
    connect(pid.get_output_port_control(), hold.get_input_port(0))
    connect(hold.get_output_port(0), plant.get_input_port(0))
    logger = log(plant.get_output_port(0), b, 0.01)
    return build(), plant, logger


def build_discrete(builder_class, prim, log):
    """The loop in discrete time: x[n+1] = Ad x + Bd u (exact ZOH discretization), PI-D
    z[n+1] = z + h (r - x), u = kp (r - x) + ki z - kd v, on [r; x; v] from a
    Multiplexer; the plant output logged every step."""
    b = builder_class()
    add, connect, build = _builder_of(b)
    M = expm(np.block([[np.array(A), np.array(B)], [np.zeros((1, 3))]]) * H_DISCRETE)
    plant = add(prim.LinearSystem(M[:2, :2], M[:2, 2:], np.eye(2), np.zeros((2, 1)),
                                  H_DISCRETE))
    reference = add(prim.ConstantVectorSource([1.0]))
    mux = add(prim.Multiplexer([1, 2]))
    controller = add(prim.LinearSystem(
        [[1.0]], [[H_DISCRETE, -H_DISCRETE, 0.0]], [[KI]], [[KP, -KP, -KD]], H_DISCRETE))
    connect(reference.get_output_port(0), mux.get_input_port(0))
    connect(plant.get_output_port(0), mux.get_input_port(1))
    connect(mux.get_output_port(0), controller.get_input_port(0))
    connect(controller.get_output_port(0), plant.get_input_port(0))
    logger = log(plant.get_output_port(0), b, H_DISCRETE)
    return build(), plant, logger


def _builder_of(b):
    if hasattr(b, "AddSystem"):
        return b.AddSystem, b.Connect, b.Build
    return b.add_system, b.connect, b.build


class _MerganserPrimitives:
    LinearSystem = mf.LinearSystem
    ConstantVectorSource = mf.ConstantVectorSource
    MatrixGain = mf.MatrixGain
    Adder = mf.Adder
    Integrator = mf.Integrator
    ZeroOrderHold = mf.ZeroOrderHold
    Multiplexer = mf.Multiplexer


def _merganser_log(port, builder, period):
    return mf.log_vector_output(port, builder, publish_period=period)


def _drake_log(port, builder, period):
    return dp.LogVectorOutput(port, builder, period)


def events_diagram(kind, drake):
    if drake:
        if kind == "zoh":
            return build_zoh(dfw.DiagramBuilder, dp, dc.PidController, _drake_log)
        return build_discrete(dfw.DiagramBuilder, dp, _drake_log)
    if kind == "zoh":
        return build_zoh(mf.DiagramBuilder, _MerganserPrimitives, mc.PidController,
                         _merganser_log)
    return build_discrete(mf.DiagramBuilder, _MerganserPrimitives, _merganser_log)


def run_events(kind, who, compiled=True):
    """Wall time of the 10 s run with events, (time, samples logged, final [x, x'])."""
    drake = who == "drake"
    diagram, plant, logger = events_diagram(kind, drake)
    if drake:
        simulator = da.Simulator(diagram)
        da.ApplySimulatorConfig(da.SimulatorConfig(integration_scheme="runge_kutta3",
                                                   accuracy=1e-3, max_step_size=0.1),
                                simulator)
        simulator.Initialize()
        start = time.perf_counter()
        simulator.AdvanceTo(T_FINAL)
        elapsed = time.perf_counter() - start
        ctx = simulator.get_context()
        log = logger.FindLog(ctx)
        plant_ctx = plant.GetMyContextFromRoot(ctx)
        x = (plant_ctx.get_discrete_state_vector().CopyToVector() if kind == "discrete"
             else plant_ctx.get_continuous_state_vector().CopyToVector())
        return elapsed, log.num_samples(), np.array(x)
    context = diagram.create_default_context()
    if compiled:
        assert compile_diagram_dynamics(diagram, context)
        assert compiled_dynamics_status(context).python_events == ()
    else:
        unfuse_compiled_dynamics(context)
    simulator = mf.Simulator(diagram, context)
    mf.apply_simulator_config(mf.SimulatorConfig(integration_scheme="runge_kutta3",
                                                 accuracy=1e-3, max_step_size=0.1), simulator)
    simulator.initialize()
    start = time.perf_counter()
    simulator.advance_to(T_FINAL)
    elapsed = time.perf_counter() - start
    plant_ctx = plant.get_my_context_from_root(context)
    x = (plant_ctx.get_discrete_state_vector() if kind == "discrete"
         else plant_ctx.get_continuous_state_vector())
    return elapsed, logger.find_log(context).num_samples(), np.array(x)


def merganser_diagram(kind):
    if kind == "pid":
        return build_pid(mf.DiagramBuilder, _MerganserPrimitives, mc.PidController)
    return build_blocks(mf.DiagramBuilder, _MerganserPrimitives)


def run_merganser(kind, scheme, compiled=True):
    diagram, plant = merganser_diagram(kind)
    context = diagram.create_default_context()
    if compiled:
        # compile now (the Simulator alone waits until a new wiring has run
        # COMPILE_AFTER_SECONDS of block-by-block evaluation)
        assert compile_diagram_dynamics(diagram, context)
    else:
        unfuse_compiled_dynamics(context)
    simulator = mf.Simulator(diagram, context)
    mf.apply_simulator_config(mf.SimulatorConfig(integration_scheme=scheme, accuracy=1e-3,
                                                 max_step_size=0.1), simulator)
    simulator.initialize()                     # as the Drake runs do, before the clock
    start = time.perf_counter()
    simulator.advance_to(T_FINAL)
    elapsed = time.perf_counter() - start
    assert compiled_dynamics_status(context).path == ("compiled" if compiled
                                                      else "block_by_block")
    nfev = simulator.get_integrator().get_num_derivative_evaluations()
    x = plant.get_my_context_from_root(context).get_continuous_state_vector()
    return elapsed, nfev, np.array(x)


def run_drake(kind):
    if kind == "pid":
        diagram, plant = build_pid(dfw.DiagramBuilder, dp, dc.PidController)
    else:
        diagram, plant = build_blocks(dfw.DiagramBuilder, dp)
    simulator = da.Simulator(diagram)
    da.ApplySimulatorConfig(da.SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-3,
                                               max_step_size=0.1), simulator)
    simulator.Initialize()
    start = time.perf_counter()
    simulator.AdvanceTo(T_FINAL)
    elapsed = time.perf_counter() - start
    nfev = simulator.get_integrator().get_num_derivative_evaluations()
    x = plant.GetMyContextFromRoot(simulator.get_context()).get_continuous_state_vector()
    return elapsed, nfev, np.array(x.CopyToVector())


def rhs(t, s):
    x, v, z = s
    u = KP * (1.0 - x) + KI * z - KD * v
    return [v, -4.0 * x - 0.8 * v + u, 1.0 - x]


def run_scipy():
    start = time.perf_counter()
    sol = solve_ivp(rhs, (0.0, T_FINAL), [0.0, 0.0, 0.0], method="RK45", rtol=1e-3,
                    max_step=0.1)
    elapsed = time.perf_counter() - start
    return elapsed, sol.nfev, sol.y[:2, -1]


def per_eval(runs):
    return statistics.median(e / n for e, n, _ in runs)


def main():
    cases = {}
    for kind in ("pid", "blocks"):
        for compiled in (True, False):
            cases[("merganser", kind, "runge_kutta3", compiled)] = (
                lambda k=kind, c=compiled: run_merganser(k, "runge_kutta3", c))
        if da is not None:
            cases[("drake", kind, "runge_kutta3", None)] = lambda k=kind: run_drake(k)
    for compiled in (True, False):
        cases[("merganser", "blocks", "runge_kutta5", compiled)] = (
            lambda c=compiled: run_merganser("blocks", "runge_kutta5", c))
    cases[("scipy", "rhs", "RK45", None)] = run_scipy
    for kind in ("zoh", "discrete"):
        for compiled in (True, False):
            cases[("merganser", kind, "events", compiled)] = (
                lambda k=kind, c=compiled: run_events(k, "merganser", c))
        if da is not None:
            cases[("drake", kind, "events", None)] = lambda k=kind: run_events(k, "drake")
    for fn in cases.values():            # warm up: compile (or load) the kernels
        fn()
        fn()
    runs = {key: [] for key in cases}
    for _ in range(REPEATS):             # interleaved so that machine load affects all alike
        for key, fn in cases.items():
            runs[key].append(fn())
    print(f"per time-derivative evaluation, median of {REPEATS} interleaved runs of 10 s:")
    for key, rs in runs.items():
        who, kind, scheme, compiled = key
        if scheme == "events":
            continue
        label = who + ("" if compiled is None else
                       " (compiled)" if compiled else " (block by block)")
        print(f"  {label:28s} {kind:7s} {scheme:13s}: {per_eval(rs) * 1e6:7.2f} us/eval, "
              f"{rs[0][1]:5d} evaluations, final [x, x'] = {np.round(rs[0][2][:2], 6)}")
    print("ratios (merganser / peer, per evaluation):")
    if da is not None:
        for kind in ("pid", "blocks"):
            drake = per_eval(runs[("drake", kind, "runge_kutta3", None)])
            for compiled in (True, False):
                mine = per_eval(runs[("merganser", kind, "runge_kutta3", compiled)])
                print(f"  {kind:6s} RK3 vs Drake, {'compiled' if compiled else 'block by block':14s}:"
                      f" {mine / drake:6.2f}x (goal <= 1.0)")
    else:
        print("  (pydrake not installed: pip install -e '.[bench]')")
    sp = per_eval(runs[("scipy", "rhs", "RK45", None)])
    for compiled in (True, False):
        mine = per_eval(runs[("merganser", "blocks", "runge_kutta5", compiled)])
        print(f"  blocks RK5 vs scipy RK45, {'compiled' if compiled else 'block by block':14s}: "
              f"{mine / sp:6.2f}x (goal <= 0.5)")
    print(f"with events (discrete updates, a logger), wall time of the 10 s run, median of "
          f"{REPEATS}:")
    for key, rs in runs.items():
        who, kind, scheme, compiled = key
        if scheme != "events":
            continue
        label = who + ("" if compiled is None else
                       " (compiled)" if compiled else " (block by block)")
        print(f"  {label:28s} {kind:8s}: {statistics.median(r[0] for r in rs) * 1e3:8.2f} ms, "
              f"{rs[0][1]:6d} samples logged, final [x, x'] = {np.round(rs[0][2][:2], 6)}")
    if da is not None:
        for kind in ("zoh", "discrete"):
            drake = statistics.median(r[0] for r in runs[("drake", kind, "events", None)])
            for compiled in (True, False):
                mine = statistics.median(r[0] for r in runs[("merganser", kind, "events",
                                                             compiled)])
                print(f"  {kind:8s} vs Drake, {'compiled' if compiled else 'block by block':14s}:"
                      f" {mine / drake:6.2f}x")


if __name__ == "__main__":
    main()
