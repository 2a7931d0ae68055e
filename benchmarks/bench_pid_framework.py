"""Framework overhead: a PID-controlled 2nd-order plant, diagram vs hand-written scipy.

The plant x'' = -4 x - 0.8 x' + u under PID control (kp = 10, ki = 5, kd = 3, reference
1) is simulated for 10 s with runge_kutta5 at accuracy 1e-3

(a) as a merganser Diagram built from primitives (LinearSystem plant, ConstantVectorSource,
    MatrixGain, Adder, Integrator), and
(b) with scipy.integrate.solve_ivp (RK45, rtol = 1e-3) on a hand-written right-hand side,

and prints the wall time per right-hand-side (time-derivative) evaluation of each, their
ratio (goal: framework / scipy <= 2.0), and the final states to show both computed the
same trajectory. The framework is measured twice: with its default evaluation, which
composes this time-invariant affine diagram into one affine map (framework.affine_fusion),
and block by block (``unfuse_affine_dynamics(context)``), the cost any diagram with a
nonlinear or user-written block pays. Medians over repeated, interleaved runs; all measured
in this process.

Run: ``.venv/bin/python benchmarks/bench_pid_framework.py``
"""

import statistics
import time

import numpy as np
from scipy.integrate import solve_ivp

from merganser.framework import (Adder, ConstantVectorSource, DiagramBuilder, Integrator, LinearSystem,
                       MatrixGain, Simulator, SimulatorConfig, apply_simulator_config)
from merganser.framework.affine_fusion import unfuse_affine_dynamics

KP, KI, KD = 10.0, 5.0, 3.0
T_FINAL = 10.0
REPEATS = 7


def build_diagram():
    """Plant y = [x, x'], PID u = kp e + ki ∫e - kd x' with e = 1 - x."""
    builder = DiagramBuilder()
    plant = builder.add_named_system(
        "plant", LinearSystem(A=[[0.0, 1.0], [-4.0, -0.8]], B=[[0.0], [1.0]],
                              C=np.eye(2), D=np.zeros((2, 1))))
    reference = builder.add_named_system("reference", ConstantVectorSource([1.0]))
    minus_x = builder.add_named_system("minus_x", MatrixGain([[-1.0, 0.0]]))
    error = builder.add_named_system("error", Adder(2, 1))
    integral = builder.add_named_system("integral", Integrator(1))
    p_term = builder.add_named_system("kp", MatrixGain([[KP]]))
    i_term = builder.add_named_system("ki", MatrixGain([[KI]]))
    d_term = builder.add_named_system("kd", MatrixGain([[0.0, -KD]]))
    control = builder.add_named_system("control", Adder(3, 1))
    builder.connect(plant.get_output_port(), minus_x.get_input_port())
    builder.connect(reference.get_output_port(), error.get_input_port(0))
    builder.connect(minus_x.get_output_port(), error.get_input_port(1))
    builder.connect(error.get_output_port(), integral.get_input_port())
    builder.connect(error.get_output_port(), p_term.get_input_port())
    builder.connect(integral.get_output_port(), i_term.get_input_port())
    builder.connect(plant.get_output_port(), d_term.get_input_port())
    builder.connect(p_term.get_output_port(), control.get_input_port(0))
    builder.connect(i_term.get_output_port(), control.get_input_port(1))
    builder.connect(d_term.get_output_port(), control.get_input_port(2))
    builder.connect(control.get_output_port(), plant.get_input_port())
    return builder.build(), plant


def run_framework(fused=True):
    diagram, plant = build_diagram()
    context = diagram.create_default_context()
    if not fused:
        unfuse_affine_dynamics(context)      # the Simulator fuses unless told not to
    simulator = Simulator(diagram, context)
    apply_simulator_config(SimulatorConfig(integration_scheme="runge_kutta5", accuracy=1e-3,
                                           max_step_size=0.1), simulator)
    start = time.perf_counter()
    simulator.advance_to(T_FINAL)
    elapsed = time.perf_counter() - start
    nfev = simulator.get_integrator().get_num_derivative_evaluations()
    x = plant.get_my_context_from_root(simulator.get_context()).get_continuous_state_vector()
    return elapsed, nfev, np.array(x)


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


def main():
    run_framework(True)
    run_framework(False)
    run_scipy()
    fused, blocks, sp = [], [], []
    for _ in range(REPEATS):          # interleaved so that machine load affects all alike
        fused.append(run_framework(True))
        blocks.append(run_framework(False))
        sp.append(run_scipy())
    sp_per = statistics.median(e / n for e, n, _ in sp)
    print(f"scipy solve_ivp RK45       : {sp[0][1]} derivative evaluations, median "
          f"{sp_per * 1e6:.2f} us/eval, final [x, x'] = {sp[0][2]}")
    for label, runs in (("framework (affine fusion)", fused),
                        ("framework (block by block)", blocks)):
        per = statistics.median(e / n for e, n, _ in runs)
        print(f"{label:27s}: {runs[0][1]} derivative evaluations, median {per * 1e6:.2f} us/eval, "
              f"final [x, x'] = {runs[0][2]}; ratio to scipy {per / sp_per:.2f} (goal <= 2.0)")


if __name__ == "__main__":
    main()
