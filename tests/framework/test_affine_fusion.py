"""Affine fusion, the explicit transform (framework.affine_fusion): fused evaluation of
time-invariant affine diagrams equals block-by-block evaluation."""

import numpy as np
import pytest

from merganser.framework import (Adder, ConstantVectorSource, DiagramBuilder, Integrator, LeafSystem,
                       LinearSystem, MatrixGain, Simulator)
from merganser.framework.affine_fusion import (fuse_affine_dynamics, is_affine_fused,
                                               unfuse_affine_dynamics)


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
    assert not is_affine_fused(ctx)          # nobody fused this context: block by block
    rng = np.random.default_rng(0)
    for _ in range(5):
        x = rng.normal(size=3)
        ctx.set_continuous_state(x)
        assert fuse_affine_dynamics(diagram, ctx)
        assert is_affine_fused(ctx)
        fused = np.array(diagram.eval_time_derivatives(ctx))
        unfuse_affine_dynamics(ctx)
        assert not is_affine_fused(ctx)
        blocks = np.array(diagram.eval_time_derivatives(ctx))
        np.testing.assert_allclose(fused, blocks, rtol=1e-13, atol=1e-13)
        # hand-written closed loop: u = 10 (1 - x) + 5 z - 3 v
        xq, v, z = x
        u = 10.0 * (1.0 - xq) + 5.0 * z - 3.0 * v
        np.testing.assert_allclose(fused, [v, -4 * xq - 0.8 * v + u, 1.0 - xq], rtol=1e-13)


def test_parameter_change_recomposes_the_map():
    diagram, plant, ref = pid_loop()
    ctx = diagram.create_default_context()
    assert fuse_affine_dynamics(diagram, ctx)
    diagram.eval_time_derivatives(ctx)
    ref.get_my_context_from_root(ctx).set_numeric_parameter(0, [3.0])
    xdot = diagram.eval_time_derivatives(ctx)
    assert xdot[1] == pytest.approx(30.0)      # u = 10 * 3 at x = 0
    assert xdot[2] == pytest.approx(3.0)


def test_a_user_block_makes_the_diagram_ineligible_and_results_agree():
    class Doubler(LeafSystem):
        def __init__(self):
            super().__init__()
            self.u = self.declare_vector_input_port("u", 1)
            self.declare_vector_output_port("y", 1, lambda c, o: o.set_value(2.0 * self.u.eval(c)))

    diagram, plant, ref = pid_loop(Doubler())
    ctx = diagram.create_default_context()
    ctx.set_continuous_state([0.5, -0.2, 0.1])
    assert not fuse_affine_dynamics(diagram, ctx)
    assert not is_affine_fused(Simulator(diagram, ctx).get_context())
    xdot = diagram.eval_time_derivatives(ctx)
    u = 10.0 * 0.5 + 5.0 * 0.1 - 6.0 * -0.2
    np.testing.assert_allclose(xdot, [-0.2, -2.0 + 0.16 + u, 0.5], rtol=1e-13)


def test_the_simulator_fuses_unless_the_user_unfused_the_context():
    finals = []
    for fused in (True, False):
        diagram, plant, ref = pid_loop()
        ctx = diagram.create_default_context()
        if not fused:
            unfuse_affine_dynamics(ctx)
        simulator = Simulator(diagram, ctx)
        assert is_affine_fused(simulator.get_context()) == fused
        simulator.get_mutable_integrator().set_target_accuracy(1e-8)
        simulator.advance_to(5.0)
        finals.append(np.array(simulator.get_context().get_continuous_state_vector()))
    np.testing.assert_allclose(finals[0], finals[1], rtol=1e-9, atol=1e-12)


def test_diagram_simulate_fuses_and_a_clone_stays_fused():
    diagram, plant, ref = pid_loop()
    result = diagram.simulate(1.0, progress=False)
    assert is_affine_fused(result.context)
    clone = result.context.clone()
    assert is_affine_fused(clone)
    np.testing.assert_array_equal(diagram.eval_time_derivatives(clone),
                                  diagram.eval_time_derivatives(result.context))
