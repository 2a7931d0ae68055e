"""For the compiled-diagram tests: a seeded generator of random diagrams of blocks that
have a compiled form (random sizes, fan-out, multiplexing, feedback through blocks
without direct feedthrough, never an algebraic loop; optionally discrete blocks at random
periods and offsets, `RandomDiagram.discrete_makers`, and loggers of random ports), and
the comparison of a compiled context with a block-by-block one."""

import numpy as np

from merganser.framework.compiled_diagram import (compile_diagram_dynamics,
                                                  compiled_dynamics_status,
                                                  unfuse_compiled_dynamics)

from merganser.framework import (Adder, AffineSystem, ConstantVectorSource, Demultiplexer,
                                 DiagramBuilder, DiscreteTimeDelay, DiscreteTimeIntegrator,
                                 FirstOrderLowPassFilter,
                                 Gain, Integrator, LinearSystem, MatrixGain, Multiplexer,
                                 PassThrough, Saturation, ZeroOrderHold, log_vector_output)


class RandomDiagram:
    """``RandomDiagram(seed).build()`` -> Diagram; ``feedthrough_makers`` and
    ``stateful_makers`` extend the block set: each is ``maker(rng, size)`` returning
    ``(system, input sizes, output port)``."""

    def __init__(self, seed, num_stateful=3, num_feedthrough=8, feedthrough_makers=(),
                 stateful_makers=(), num_loggers=0):
        self.rng = np.random.default_rng(seed)
        self.num_stateful = num_stateful
        self.num_feedthrough = num_feedthrough
        self.num_loggers = num_loggers
        self.loggers = []
        self.feedthrough_makers = [self._gain, self._adder, self._mux, self._demux,
                                   self._saturation, self._pass_through, self._matrix_gain,
                                   self._affine_feedthrough, *feedthrough_makers]
        self.stateful_makers = [self._integrator, self._linear, self._low_pass,
                                *stateful_makers]

    # ---- blocks ---------------------------------------------------------------------------
    def _gain(self, rng, n):
        return Gain(rng.normal(size=n)), [n]

    def _adder(self, rng, n):
        k = int(rng.integers(1, 4))
        return Adder(k, n), [n] * k

    def _mux(self, rng, n):
        sizes = [int(s) for s in rng.integers(1, 3, size=int(rng.integers(1, 4)))]
        return Multiplexer(sizes), sizes

    def _demux(self, rng, n):
        return Demultiplexer([1] * (n + 1)), [n + 1]

    def _saturation(self, rng, n):
        lo = rng.uniform(-2.0, -0.1, size=n)
        return Saturation(lo, lo + rng.uniform(0.2, 3.0, size=n)), [n]

    def _pass_through(self, rng, n):
        return PassThrough(n), [n]

    def _matrix_gain(self, rng, n):
        return MatrixGain(rng.normal(size=(int(rng.integers(1, 4)), n))), [n]

    def _affine_feedthrough(self, rng, n):
        k = int(rng.integers(1, 3))
        p = int(rng.integers(1, 3))
        return AffineSystem(A=-np.eye(k) + 0.3 * rng.normal(size=(k, k)), B=rng.normal(size=(k, n)),
                            f0=rng.normal(size=k), C=rng.normal(size=(p, k)),
                            D=rng.normal(size=(p, n)), y0=rng.normal(size=p)), [n]

    def _integrator(self, rng, n):
        return Integrator(n), [n]

    def _linear(self, rng, n):
        k = int(rng.integers(1, 4))
        return LinearSystem(A=-np.eye(k) + 0.3 * rng.normal(size=(k, k)), B=rng.normal(size=(k, n)),
                            C=rng.normal(size=(int(rng.integers(1, 3)), k)),
                            D=None), [n]

    def _low_pass(self, rng, n):
        return FirstOrderLowPassFilter(time_constants=rng.uniform(0.1, 2.0, size=n)), [n]

    # discrete blocks (periodic discrete updates at random periods and offsets)
    def zero_order_hold(self, rng, n):
        return ZeroOrderHold(float(rng.choice([0.01, 0.025, 0.03])), n,
                             offset_sec=float(rng.choice([0.0, 0.005, 0.0125]))), [n]

    def discrete_time_delay(self, rng, n):
        return DiscreteTimeDelay(float(rng.choice([0.01, 0.02])), int(rng.integers(0, 3)), n), [n]

    def discrete_integrator(self, rng, n):
        return DiscreteTimeIntegrator(n, float(rng.choice([0.01, 0.02]))), [n]

    def discrete_linear(self, rng, n):
        k = int(rng.integers(1, 4))
        return LinearSystem(A=0.5 * np.eye(k) + 0.2 * rng.normal(size=(k, k)),
                            B=rng.normal(size=(k, n)), C=rng.normal(size=(int(rng.integers(1, 3)), k)),
                            D=None, time_period=float(rng.choice([0.01, 0.02]))), [n]

    def discrete_affine_feedthrough(self, rng, n):
        k = int(rng.integers(1, 3))
        p = int(rng.integers(1, 3))
        return AffineSystem(A=0.5 * np.eye(k) + 0.2 * rng.normal(size=(k, k)),
                            B=rng.normal(size=(k, n)), f0=rng.normal(size=k),
                            C=rng.normal(size=(p, k)), D=rng.normal(size=(p, n)),
                            y0=rng.normal(size=p), time_period=0.015), [n]

    def discrete_makers(self):
        """(stateful makers, feedthrough makers) of the discrete blocks."""
        return ([self.zero_order_hold, self.discrete_time_delay, self.discrete_linear,
                 self.discrete_integrator],
                [self.discrete_affine_feedthrough])

    # ---- wiring ---------------------------------------------------------------------------
    def build(self):
        rng = self.rng
        self.builder = builder = DiagramBuilder()
        self.outputs = []           # output ports
        self.systems = []
        deferred = []
        for _ in range(self.num_stateful):
            maker = self.stateful_makers[int(rng.integers(len(self.stateful_makers)))]
            system, sizes = maker(rng, int(rng.integers(1, 4)))
            self._add(system)
            deferred.append(system)
        for _ in range(self.num_feedthrough):
            maker = self.feedthrough_makers[int(rng.integers(len(self.feedthrough_makers)))]
            system, sizes = maker(rng, int(rng.integers(1, 4)))
            self._add(system, publish=False)
            for i in range(system.num_input_ports()):
                self._feed(system.get_input_port(i))
            self._publish(system)
        for system in deferred:     # feedback: these have no direct feedthrough
            for i in range(system.num_input_ports()):
                self._feed(system.get_input_port(i))
        for _ in range(self.num_loggers):   # every step, or at a random period
            port = self.outputs[int(rng.integers(len(self.outputs)))]
            period = float(rng.choice([0.0, 0.01, 0.05, 0.125]))
            self.loggers.append(log_vector_output(port, builder, publish_period=period))
        return builder.build()

    def _add(self, system, publish=True):
        self.builder.add_named_system(f"b{len(self.systems)}", system)
        self.systems.append(system)
        if publish:
            self._publish(system)

    def _publish(self, system):
        """Offer the outputs of ``system`` to the inputs wired from now on."""
        self.outputs += [system.get_output_port(j) for j in range(system.num_output_ports())]

    def _feed(self, port):
        n = port.size()
        candidates = [o for o in self.outputs if o.size() == n]
        if not candidates or self.rng.uniform() < 0.15:
            source = ConstantVectorSource(self.rng.normal(size=n))
            self._add(source)
            candidates = [source.get_output_port()]
        self.builder.connect(candidates[int(self.rng.integers(len(candidates)))], port)


def bits(a):
    """The bytes of ``a`` as float64: equal bits, signed zeros and NaNs included."""
    return np.asarray(a, dtype=float).tobytes()


def prepared_context(diagram, compiled):
    """A default context of ``diagram``, compiled now or block by block."""
    ctx = diagram.create_default_context()
    if compiled:
        assert compile_diagram_dynamics(diagram, ctx), compiled_dynamics_status(ctx)
    else:
        unfuse_compiled_dynamics(ctx)
    return ctx


def compiled_and_plain(diagram):
    """Two default contexts of ``diagram``: one compiled now, one block by block."""
    fused = diagram.create_default_context()
    plain = diagram.create_default_context()
    assert compile_diagram_dynamics(diagram, fused), compiled_dynamics_status(fused)
    unfuse_compiled_dynamics(plain)
    return fused, plain


def assert_bitwise_equal_at_random_states(diagram, fused, plain, rng, trials=4, scale=3.0,
                                          times=(0.0,)):
    """The derivatives of both contexts at random states (and each of ``times``) have
    the same bits, and ``fused`` evaluated them compiled."""
    n = fused.num_continuous_states()
    for t in times:
        for _ in range(trials):
            x = rng.normal(size=n) * scale
            for ctx in (fused, plain):
                ctx.set_time(t)
                ctx.set_continuous_state(x)
            a = np.array(diagram.eval_time_derivatives(fused))
            b = np.array(diagram.eval_time_derivatives(plain))
            assert bits(a) == bits(b), (t, a, b)
    assert compiled_dynamics_status(fused).path == "compiled"
