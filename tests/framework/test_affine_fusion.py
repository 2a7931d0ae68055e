"""Fused evaluation of time-invariant affine diagrams equals block-by-block evaluation."""

import numpy as np
import pytest

from merganser.framework import (Adder, ConstantVectorSource, DiagramBuilder, Integrator, LeafSystem,
                       LinearSystem, MatrixGain, Simulator)


def pid_loop(extra_block=None):
    builder = DiagramBuilder()
    plant = builder.add_named_system(
        "plant", LinearSystem([[0.0, 1.0], [-4.0, -0.8]], [[0.0], [1.0]], np.eye(2), np.zeros((2, 1))))
    ref = builder.add_named_system("ref", ConstantVectorSource([1.0]))
    err = builder.add_named_system("err", Adder(2, 1))
    neg = builder.add_named_system("neg", MatrixGain([[-1.0, 0.0]]))
    integ = builder.add_named_system("integ", Integrator(1))
    mux_in = builder.add_named_system("sum", Adder(3, 1))
    builder.connect(plant.get_output_port(), neg.get_input_port())
    builder.connect(ref.get_output_port(), err.get_input_port(0))
    builder.connect(neg.get_output_port(), err.get_input_port(1))
    builder.connect(err.get_output_port(), integ.get_input_port())
    kp = builder.add_named_system("kp", MatrixGain([[10.0]]))
    ki = builder.add_named_system("ki", MatrixGain([[5.0]]))
    kd = builder.add_named_system("kd", MatrixGain([[0.0, -3.0]]))
    builder.connect(err.get_output_port(), kp.get_input_port())
    builder.connect(integ.get_output_port(), ki.get_input_port())
    builder.connect(plant.get_output_port(), kd.get_input_port())
    builder.connect(kp.get_output_port(), mux_in.get_input_port(0))
    builder.connect(ki.get_output_port(), mux_in.get_input_port(1))
    last = kd
    if extra_block is not None:
        builder.add_named_system("extra", extra_block)
        builder.connect(kd.get_output_port(), extra_block.get_input_port())
        last = extra_block
    builder.connect(last.get_output_port(), mux_in.get_input_port(2))
    builder.connect(mux_in.get_output_port(), plant.get_input_port())
    return builder.build(), plant, ref


def test_fused_derivatives_equal_block_by_block_at_random_states():
    diagram, plant, ref = pid_loop()
    ctx = diagram.create_default_context()
    rng = np.random.default_rng(0)
    for _ in range(5):
        x = rng.normal(size=3)
        ctx.set_continuous_state(x)
        diagram.affine_fusion = True
        fused = np.array(diagram.eval_time_derivatives(ctx))
        assert ctx._affine_plan
        diagram.affine_fusion = False
        ctx.set_continuous_state(x)          # invalidate the cached derivatives
        blocks = np.array(diagram.eval_time_derivatives(ctx))
        np.testing.assert_allclose(fused, blocks, rtol=1e-13, atol=1e-13)
        # hand-written closed loop: u = 10 (1 - x) + 5 z - 3 v
        xq, v, z = x
        u = 10.0 * (1.0 - xq) + 5.0 * z - 3.0 * v
        np.testing.assert_allclose(fused, [v, -4 * xq - 0.8 * v + u, 1.0 - xq], rtol=1e-13)


def test_parameter_change_rebuilds_the_plan():
    diagram, plant, ref = pid_loop()
    ctx = diagram.create_default_context()
    diagram.eval_time_derivatives(ctx)
    ref.get_my_context_from_root(ctx).set_numeric_parameter(0, [3.0])
    xdot = diagram.eval_time_derivatives(ctx)
    assert xdot[1] == pytest.approx(30.0)      # u = 10 * 3 at x = 0
    assert xdot[2] == pytest.approx(3.0)


def test_a_user_block_disables_fusion_and_results_agree():
    class Doubler(LeafSystem):
        def __init__(self):
            super().__init__()
            self.u = self.declare_vector_input_port("u", 1)
            self.declare_vector_output_port("y", 1, lambda c, o: o.set_value(2.0 * self.u.eval(c)))

    diagram, plant, ref = pid_loop(Doubler())
    ctx = diagram.create_default_context()
    ctx.set_continuous_state([0.5, -0.2, 0.1])
    xdot = diagram.eval_time_derivatives(ctx)
    assert ctx._affine_plan is False
    u = 10.0 * 0.5 + 5.0 * 0.1 - 6.0 * -0.2
    np.testing.assert_allclose(xdot, [-0.2, -2.0 + 0.16 + u, 0.5], rtol=1e-13)


def test_fused_simulation_matches_block_by_block():
    finals = []
    for fused in (True, False):
        diagram, plant, ref = pid_loop()
        diagram.affine_fusion = fused
        simulator = Simulator(diagram)
        simulator.get_mutable_integrator().set_target_accuracy(1e-8)
        simulator.advance_to(5.0)
        finals.append(np.array(simulator.get_context().get_continuous_state_vector()))
    np.testing.assert_allclose(finals[0], finals[1], rtol=1e-9, atol=1e-12)
