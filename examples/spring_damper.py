"""A user-written LeafSystem in a diagram, simulated in one call.

Shows how to write a LeafSystem (continuous state declared as q, v; an input port; a
state output port; ``do_calc_time_derivatives``), wire it to a primitive
(ConstantVectorSource) with a DiagramBuilder, set its initial state through its
subcontext, and simulate with ``diagram.simulate`` while recording an output port.

The mass-spring-damper (m = 1, k = 4, c = 0.4) released from x = 1 with no force
follows x(t) = exp(-0.2 t) (cos(wd t) + 0.2/wd sin(wd t)), wd = sqrt(4 - 0.04); the run
checks the simulated x(t) against it within 1e-6.

``--quick`` simulates 5 s instead of 10 s; ``--plots DIR`` saves x(t) with the exact
solution and the error; there is no geometry, so ``--html`` is not available.

Run: ``python examples/spring_damper.py [--quick] [--plots DIR]``
"""

import sys

import numpy as np

import _support

from merganser.framework import ConstantVectorSource, DiagramBuilder, LeafSystem, SimulatorConfig


class SpringDamper(LeafSystem):
    """A mass on a linear spring and damper: m ẍ = u − k x − c ẋ.

    ::

        u ──▶ ┌──────────────┐
              │ SpringDamper │ ──▶ y = [x, ẋ]
              └──────────────┘

    Parameters
    ----------
    k : float
        Spring stiffness (N/m).
    c : float
        Damping coefficient (N·s/m).
    m : float
        Mass (kg).
    """

    def __init__(self, k=4.0, c=0.4, m=1.0):
        super().__init__()
        self.k, self.c, self.m = k, c, m
        self.declare_continuous_state(1, 1, 0)            # q = x, v = ẋ
        self.declare_vector_input_port("u", 1)
        self.declare_state_output_port("y", 0)

    def do_calc_time_derivatives(self, context, derivatives):
        x, v = context.get_continuous_state_vector()
        u = self.get_input_port("u").eval(context)[0]
        derivatives.set_value([v, (u - self.k * x - self.c * v) / self.m])


def analytic_position(t):
    """x(t) of the free response from x = 1, ẋ = 0, shape like ``t``."""
    wd = np.sqrt(4.0 - 0.04)
    return np.exp(-0.2 * t) * (np.cos(wd * t) + 0.2 / wd * np.sin(wd * t))


def main(argv=None):
    args = _support.parse_args(argv, __doc__)
    if args.html:
        raise SystemExit("spring_damper: --html is not available (the example has no geometry)")
    t_final = 5.0 if args.quick else 10.0
    builder = DiagramBuilder()
    plant = builder.add_named_system("spring", SpringDamper())
    force = builder.add_system(ConstantVectorSource([0.0]))
    builder.connect(force.get_output_port(), plant.get_input_port("u"))
    diagram = builder.build()

    context = diagram.create_default_context()
    plant.get_my_context_from_root(context).set_continuous_state([1.0, 0.0])
    result = diagram.simulate(
        t_final, context=context,
        config=SimulatorConfig(integration_scheme="runge_kutta5", accuracy=1e-10),
        record={"y": plant.get_output_port("y")})

    t, x = result.time, result.outputs["y"][0]
    error = np.max(np.abs(x - analytic_position(t)))
    print(f"spring_damper: {t.size} samples over {t[-1]:.1f} s, "
          f"max |x - x_exact| = {error:.2e}")
    assert error < 1e-6, f"spring_damper: max error {error:.3e} exceeds 1e-6"
    if args.plots:
        from merganser.framework.plotting import plot_signals

        fig = plot_signals(t, {"x simulated": x, "x exact": analytic_position(t),
                               "x - x exact": x - analytic_position(t)},
                           groups={"position (m)": ["x simulated", "x exact"],
                                   "error (m)": ["x - x exact"]},
                           title="mass-spring-damper: free response")
        _support.save_plots(args.plots, "spring_damper", {"response": fig})
    return error


if __name__ == "__main__":
    main(sys.argv[1:])
