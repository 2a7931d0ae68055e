"""Compiled diagrams (framework.compiled_diagram): one generated function per wiring,
bit-for-bit equal to the block-by-block evaluation."""

import numpy as np
import pytest
from random_diagrams import (RandomDiagram, assert_bitwise_equal_at_random_states, bits,
                             compiled_and_plain)

from merganser.framework import (ConstantVectorSource, DiagramBuilder, Gain, Integrator,
                                 LeafSystem, LinearSystem, PassThrough, Simulator,
                                 SimulatorConfig, apply_simulator_config)
from merganser.framework.compilation import kernel
from merganser.framework.compiled_diagram import (CompiledForm, compile_diagram_dynamics,
                                                  compiled_dynamics_status,
                                                  register_compiled_form,
                                                  unfuse_compiled_dynamics)


@pytest.mark.parametrize("seed", range(12))
def test_random_wirings_are_bitwise_equal_to_block_by_block(seed):
    diagram = RandomDiagram(seed).build()
    fused, plain = compiled_and_plain(diagram)
    assert_bitwise_equal_at_random_states(diagram, fused, plain, np.random.default_rng(seed))


def loop_with_source(value):
    """ż = k · c, a ConstantVectorSource c through a Gain k into an Integrator."""
    builder = DiagramBuilder()
    source = builder.add_named_system("c", ConstantVectorSource(value))
    gain = builder.add_named_system("k", Gain(2.0, size=len(value)))
    integ = builder.add_named_system("z", Integrator(len(value)))
    builder.connect(source.get_output_port(), gain.get_input_port())
    builder.connect(gain.get_output_port(), integ.get_input_port())
    return builder.build(), source, integ


def test_a_parameter_change_is_seen_by_the_compiled_function():
    diagram, source, integ = loop_with_source([1.0, -2.0])
    ctx = diagram.create_default_context()
    assert compile_diagram_dynamics(diagram, ctx)
    np.testing.assert_array_equal(diagram.eval_time_derivatives(ctx), [2.0, -4.0])
    source.set_source_value(source.get_my_context_from_root(ctx), [3.0, 0.5])
    np.testing.assert_array_equal(diagram.eval_time_derivatives(ctx), [6.0, 1.0])
    source.get_mutable_source_value(source.get_my_context_from_root(ctx)).set_value([-1.0, 4.0])
    np.testing.assert_array_equal(diagram.eval_time_derivatives(ctx), [-2.0, 8.0])


def test_fixed_values_and_defaults_feed_the_compiled_function():
    builder = DiagramBuilder()
    through = builder.add_named_system("through", PassThrough([0.25, 0.5]))   # default value
    integ = builder.add_named_system("z", Integrator(2))
    plant = builder.add_named_system("plant", LinearSystem([[-1.0]], [[2.0]], [[1.0]], [[0.0]]))
    builder.connect(through.get_output_port(), integ.get_input_port())
    builder.export_input(plant.get_input_port(), "u")
    diagram = builder.build()
    ctx = diagram.create_default_context()
    diagram.get_input_port(0).fix_value(ctx, [1.5])
    assert compile_diagram_dynamics(diagram, ctx)
    ctx.set_continuous_state([0.0, 0.0, 0.5])
    np.testing.assert_array_equal(diagram.eval_time_derivatives(ctx), [0.25, 0.5, -0.5 + 3.0])
    fixed = diagram.get_input_port(0).fix_value(ctx, [-1.0])           # a new fixed value
    np.testing.assert_array_equal(diagram.eval_time_derivatives(ctx), [0.25, 0.5, -0.5 - 2.0])
    fixed.get_mutable_data().get_value().set_value([2.0])              # changed in place
    np.testing.assert_array_equal(diagram.eval_time_derivatives(ctx), [0.25, 0.5, -0.5 + 4.0])
    through.get_input_port().fix_value(through.get_my_context_from_root(ctx), [7.0, 8.0])
    np.testing.assert_array_equal(diagram.eval_time_derivatives(ctx), [7.0, 8.0, -0.5 + 4.0])
    assert compiled_dynamics_status(ctx).path == "compiled"


def test_a_clone_keeps_the_compiled_evaluation_and_its_own_parameters():
    diagram, source, integ = loop_with_source([1.0])
    ctx = diagram.create_default_context()
    assert compile_diagram_dynamics(diagram, ctx)
    diagram.eval_time_derivatives(ctx)
    clone = ctx.clone()
    source.set_source_value(source.get_my_context_from_root(clone), [5.0])
    assert compiled_dynamics_status(clone).path == "compiled"
    np.testing.assert_array_equal(diagram.eval_time_derivatives(clone), [10.0])
    np.testing.assert_array_equal(diagram.eval_time_derivatives(ctx), [2.0])


# ---- a user LeafSystem with a compiled form ------------------------------------------------
class CubicDamper(LeafSystem):
    """ẋ = −c x³ + u, y = x (c a numeric parameter)."""

    def __init__(self, c):
        super().__init__()
        self.declare_vector_input_port("u", 1)
        self.declare_continuous_state(1)
        self.c_index = self.declare_numeric_parameter(np.array([c]))
        self.declare_state_output_port("y", "continuous")

    def do_calc_time_derivatives(self, context, derivatives):
        x = context.get_continuous_state_vector()[0]
        c = context.get_numeric_parameter(self.c_index)[0]
        derivatives.set_value([-c * x * x * x + self.get_input_port().eval(context)[0]])


@kernel
def cubic_damper_derivatives(t, x, u, p, work, out):
    out[0] = -p[0] * x[0] * x[0] * x[0] + u[0]


@kernel
def cubic_damper_output(t, x, u, p, work, out):
    out[0] = x[0]


register_compiled_form(CubicDamper, lambda system: CompiledForm(
    outputs=(cubic_damper_output,), derivatives=cubic_damper_derivatives,
    parameters=lambda context: context.get_numeric_parameter(system.c_index)))


def user_loop(damper):
    builder = DiagramBuilder()
    builder.add_named_system("damper", damper)
    gain = builder.add_named_system("k", Gain(-0.5))
    builder.connect(damper.get_output_port(), gain.get_input_port())
    builder.connect(gain.get_output_port(), damper.get_input_port())
    return builder.build()


def test_a_user_leaf_system_with_a_compiled_form_is_compiled():
    damper = CubicDamper(2.0)
    diagram = user_loop(damper)
    fused, plain = compiled_and_plain(diagram)
    assert_bitwise_equal_at_random_states(diagram, fused, plain, np.random.default_rng(1))
    fused.set_continuous_state([0.5])
    damper.get_my_context_from_root(fused).set_numeric_parameter(damper.c_index, [4.0])
    assert diagram.eval_time_derivatives(fused)[0] == -4.0 * 0.125 - 0.25


class Doubler(LeafSystem):
    """y = 2 u, in Python (no compiled form)."""

    def __init__(self):
        super().__init__()
        self.u = self.declare_vector_input_port("u", 1)
        self.declare_vector_output_port("y", 1, lambda c, o: o.set_value(2.0 * self.u.eval(c)))


class PythonDecay(LeafSystem):
    """ẋ = −u x, y = x, in Python (no compiled form)."""

    def __init__(self):
        super().__init__()
        self.u = self.declare_vector_input_port("u", 1)
        self.declare_continuous_state(1)
        self.declare_state_output_port("y", "continuous")

    def do_calc_time_derivatives(self, context, derivatives):
        x = context.get_continuous_state_vector()[0]
        derivatives.set_value([-self.u.eval(context)[0] * x])


def test_python_leaves_run_around_the_compiled_call_and_are_named():
    builder = DiagramBuilder()
    doubler = builder.add_named_system("doubler", Doubler())
    decay = builder.add_named_system("decay", PythonDecay())
    integ = builder.add_named_system("z", Integrator(1))
    gain = builder.add_named_system("k", Gain(-0.5))
    builder.connect(integ.get_output_port(), doubler.get_input_port())
    builder.connect(doubler.get_output_port(), gain.get_input_port())
    builder.connect(gain.get_output_port(), integ.get_input_port())
    builder.connect(gain.get_output_port(), decay.get_input_port())
    diagram = builder.build()
    fused, plain = compiled_and_plain(diagram)
    assert_bitwise_equal_at_random_states(diagram, fused, plain, np.random.default_rng(2))
    status = compiled_dynamics_status(fused)
    assert len(status.python_systems) == 2
    assert "'doubler' (Doubler) has no compiled form" in status.reason
    assert "'decay' (PythonDecay) has no compiled form" in status.reason
    finals = []
    for ctx in (fused, plain):
        ctx.set_continuous_state([1.0, 0.5])
        Simulator(diagram, ctx).advance_to(1.0)
        finals.append(bits(ctx.get_continuous_state_vector()))
    assert finals[0] == finals[1]


def test_only_python_continuous_state_evaluates_block_by_block():
    builder = DiagramBuilder()
    decay = builder.add_named_system("decay", PythonDecay())
    source = builder.add_named_system("c", ConstantVectorSource([0.5]))
    builder.connect(source.get_output_port(), decay.get_input_port())
    diagram = builder.build()
    ctx = diagram.create_default_context()
    assert not compile_diagram_dynamics(diagram, ctx)
    status = compiled_dynamics_status(ctx)
    assert status.path == "block_by_block"
    assert "'decay' (PythonDecay) has no compiled form" in status.reason
    ctx.set_continuous_state([2.0])
    assert diagram.eval_time_derivatives(ctx)[0] == -1.0


def test_the_simulator_installs_it_and_compiles_after_the_threshold():
    diagram = RandomDiagram(7).build()
    simulator = Simulator(diagram)
    assert compiled_dynamics_status(simulator.get_context()).path in ("pending", "compiled")
    ctx = diagram.create_default_context()
    unfuse_compiled_dynamics(ctx)
    assert compiled_dynamics_status(Simulator(diagram, ctx).get_context()).path == "block_by_block"
    assert "unfuse_compiled_dynamics" in compiled_dynamics_status(ctx).reason


@pytest.mark.parametrize("scheme", ["runge_kutta3", "runge_kutta5", "bogacki_shampine3",
                                    "runge_kutta2", "explicit_euler"])
def test_the_compiled_integration_loop_equals_the_python_loop(scheme):
    """Same bits and the same statistics, through two advance_to calls (the second
    starts from the first's cached end derivatives for the FSAL schemes)."""
    diagram = RandomDiagram(100, num_stateful=4, num_feedthrough=10).build()
    results = []
    for compiled in (True, False):
        ctx = diagram.create_default_context()
        ctx.set_continuous_state(np.linspace(-1.0, 1.0, ctx.num_continuous_states()))
        if compiled:
            assert compile_diagram_dynamics(diagram, ctx)
        else:
            unfuse_compiled_dynamics(ctx)
        simulator = Simulator(diagram, ctx)
        apply_simulator_config(SimulatorConfig(integration_scheme=scheme, accuracy=1e-4,
                                               max_step_size=0.05), simulator)
        simulator.advance_to(1.0)
        simulator.advance_to(2.0)
        integrator = simulator.get_integrator()
        results.append((bits(ctx.get_continuous_state_vector()), ctx.get_time(),
                        integrator.get_num_derivative_evaluations(),
                        integrator.get_num_steps_taken(), simulator.get_num_steps_taken(),
                        integrator.get_num_step_shrinkages_from_error_control(),
                        integrator.get_largest_step_size_taken(),
                        integrator.get_smallest_adapted_step_size_taken(),
                        integrator.get_previous_integration_step_size(),
                        integrator.get_ideal_next_step_size()))
    assert results[0][1] == 2.0
    assert repr(results[0]) == repr(results[1])      # repr: nan statistics compare equal


CHILD = """
import sys
sys.path.insert(0, {tests!r})
from random_diagrams import (RandomDiagram, assert_bitwise_equal_at_random_states, bits,
                             compiled_and_plain)
from merganser.framework.compilation import compile_statistics
from merganser.framework.compiled_diagram import compile_diagram_dynamics
diagram = RandomDiagram(3).build()
ctx = diagram.create_default_context()
assert compile_diagram_dynamics(diagram, ctx)
print(repr(list(diagram.eval_time_derivatives(ctx))))
hits = [v[2] for k, v in compile_statistics().items() if "merganser_compiled_diagram_" in k]
print(hits)
"""


def test_a_second_process_loads_the_compiled_wiring_from_the_cache(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ, MERGANSER_CACHE_DIR=str(tmp_path))
    code = CHILD.format(tests=str(Path(__file__).resolve().parents[1]))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout.splitlines() for _ in range(2)]
    assert runs[0][0] == runs[1][0]                 # the same derivatives
    assert runs[0][1] == "[0]" and runs[1][1] == "[1]"   # compiled, then loaded
    assert len(list((tmp_path / "compiled_diagrams").glob("diagram_*.py"))) == 1


def test_a_logger_does_not_keep_the_diagram_block_by_block():
    """A Python leaf that nothing continuous depends on (a VectorLogSink) is left to
    Python: the derivatives are compiled, the log is the block-by-block run's."""
    from merganser.framework import log_vector_output

    logs = []
    for compiled in (True, False):
        builder = DiagramBuilder()
        source = builder.add_named_system("c", ConstantVectorSource([1.0, -0.5]))
        integ = builder.add_named_system("z", Integrator(2))
        builder.connect(source.get_output_port(), integ.get_input_port())
        logger = log_vector_output(integ.get_output_port(), builder, publish_period=0.25)
        diagram = builder.build()
        ctx = diagram.create_default_context()
        if compiled:
            assert compile_diagram_dynamics(diagram, ctx)
        else:
            unfuse_compiled_dynamics(ctx)
        Simulator(diagram, ctx).advance_to(1.0)
        log = logger.find_log(ctx)
        logs.append((bits(log.sample_times()), bits(log.data())))
        if compiled:
            assert compiled_dynamics_status(ctx).path == "compiled"
            np.testing.assert_allclose(log.data()[:, -1], [1.0, -0.5], rtol=1e-12)
    assert logs[0] == logs[1]


class BrokenDamper(CubicDamper):
    """A CubicDamper whose registered compiled form numba cannot type."""


@kernel
def broken_derivatives(t, x, u, p, work, out):
    out[0] = x.no_such_attribute


register_compiled_form(BrokenDamper, lambda system: CompiledForm(
    outputs=(cubic_damper_output,), derivatives=broken_derivatives,
    parameters=lambda context: context.get_numeric_parameter(system.c_index)))


def test_a_form_numba_rejects_falls_back_with_a_warning():
    damper = BrokenDamper(2.0)
    diagram = user_loop(damper)
    ctx = diagram.create_default_context()
    ctx.set_continuous_state([0.5])
    assert compile_diagram_dynamics(diagram, ctx)
    with pytest.warns(RuntimeWarning, match="failed to compile, evaluating block by block"):
        xdot = diagram.eval_time_derivatives(ctx)
    assert xdot[0] == -2.0 * 0.125 - 0.25
    assert compiled_dynamics_status(ctx).path == "block_by_block"


class PythonScale(LeafSystem):
    """y = 1.5 u (size n), in Python."""

    def __init__(self, n):
        super().__init__()
        self.u = self.declare_vector_input_port("u", n)
        self.declare_vector_output_port("y", n, lambda c, o: o.set_value(1.5 * self.u.eval(c)))


@pytest.mark.parametrize("seed", range(4))
def test_random_wirings_with_python_blocks_are_bitwise_equal(seed):
    diagram = RandomDiagram(seed, feedthrough_makers=[
        lambda rng, n: (PythonScale(n), [n])] * 4).build()
    fused, plain = compiled_and_plain(diagram)
    assert_bitwise_equal_at_random_states(diagram, fused, plain, np.random.default_rng(seed))


def test_an_unwritable_cache_directory_leaves_the_context_block_by_block(tmp_path, monkeypatch):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setenv("MERGANSER_CACHE_DIR", str(blocker / "cache"))
    diagram = RandomDiagram(21).build()
    ctx = diagram.create_default_context()
    assert not compile_diagram_dynamics(diagram, ctx)
    assert compiled_dynamics_status(ctx).path == "block_by_block"
    ctx.set_continuous_state(np.ones(ctx.num_continuous_states()))
    plain = diagram.create_default_context()
    plain.set_continuous_state(np.ones(ctx.num_continuous_states()))
    assert bits(diagram.eval_time_derivatives(ctx)) == bits(diagram.eval_time_derivatives(plain))


def test_a_diagram_inside_a_diagram_is_compiled_through_its_exports():
    inner_builder = DiagramBuilder()
    gain = inner_builder.add_named_system("k", Gain(-2.0))
    integ = inner_builder.add_named_system("z", Integrator(1))
    inner_builder.connect(gain.get_output_port(), integ.get_input_port())
    inner_builder.export_input(gain.get_input_port(), "u")
    inner_builder.export_output(integ.get_output_port(), "y")
    inner = inner_builder.build()
    builder = DiagramBuilder()
    builder.add_named_system("inner", inner)
    plant = builder.add_named_system("plant", LinearSystem([[-1.0]], [[1.0]], [[1.0]], [[0.0]]))
    builder.connect(inner.get_output_port(0), plant.get_input_port())
    builder.connect(plant.get_output_port(), inner.get_input_port(0))
    diagram = builder.build()
    fused, plain = compiled_and_plain(diagram)
    assert_bitwise_equal_at_random_states(diagram, fused, plain, np.random.default_rng(4))
    fused.set_continuous_state([0.5, 2.0])        # [z, plant x]: ż = −2 x, ẋ = −x + z
    np.testing.assert_array_equal(diagram.eval_time_derivatives(fused), [-4.0, -1.5])
