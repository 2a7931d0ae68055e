"""Drake's cart-pole (SDFormat) balanced upright by LQR after a push.

Shows how to load an SDFormat model with the Parser (the cart slides on a prismatic
joint, the pole swings on an unactuated pin; upright is q = [x, θ] = [0, π]), linearize
the plant about the upright equilibrium inside ``linear_quadratic_regulator`` (the system
form returns the controller u = u0 − K (x − x0) as an AffineSystem), wire it in a
diagram and simulate the closed loop from a pushed state: the pole is tipped by 0.1 rad
and the cart shoved at 0.5 m/s.

Checks: every closed-loop eigenvalue of A − B K has a negative real part; the pole never
leaves ±0.3 rad of upright; after 10 s (3 s with ``--quick``) the state is within 1e-3
(5e-2) of the upright equilibrium.

Run: ``python examples/cart_pole_lqr.py [--quick] [--html OUT] [--plots DIR]``
"""

import sys

import numpy as np

import _support
from merganser.controllers import linear_quadratic_regulator
from merganser.framework import DiagramBuilder, SimulatorConfig, linearize

X_UPRIGHT = np.array([0.0, np.pi, 0.0, 0.0])
PUSH = np.array([0.0, 0.1, 0.5, 0.0])
Q = np.diag([100.0, 100.0, 10.0, 10.0])
R = np.eye(1)


def make_cart_pole(builder):
    """The cart-pole plant (continuous) and its scene graph, added to `builder`."""
    return _support.add_model_with_geometry(builder, "drake", "cart_pole", "cart_pole.sdf")


def design_lqr(plant):
    """The LQR AffineSystem about upright, and the closed-loop eigenvalues."""
    upright, actuation = _support.equilibrium_context(plant, X_UPRIGHT)
    lqr = linear_quadratic_regulator(plant, upright, Q, R,
                                     input_port_index=actuation.get_index())
    lin = linearize(plant, upright, input_port_index=actuation.get_index(),
                    output_port_index=plant.get_state_output_port().get_index())
    K = -lqr.D()
    eigenvalues = np.linalg.eigvals(lin.A() - lin.B() @ K)
    return lqr, K, eigenvalues


def main(argv=None):
    args = _support.parse_args(argv, __doc__)
    t_final = 3.0 if args.quick else 10.0
    tolerance = 5e-2 if args.quick else 1e-3

    builder = DiagramBuilder()
    plant, scene_graph = make_cart_pole(builder)
    lqr, K, eigenvalues = design_lqr(plant)
    builder.add_named_system("lqr", lqr)
    builder.connect(plant.get_state_output_port(), lqr.get_input_port())
    builder.connect(lqr.get_output_port(), plant.get_actuation_input_port())
    replay = _support.Replay(args.html, builder, scene_graph,
                             camera=((0.0, -2.5, 0.8), (0.0, 0.0, 0.2)))
    diagram = builder.build()

    print(f"cart_pole_lqr: K = {np.array2string(K.ravel(), precision=3)}")
    print(f"cart_pole_lqr: closed-loop eigenvalues {np.array2string(eigenvalues, precision=3)}")
    assert np.all(eigenvalues.real < 0.0), "cart_pole_lqr: the LQR closed loop is not stable"

    context = diagram.create_default_context()
    plant.set_positions_and_velocities(plant.get_my_context_from_root(context),
                                       X_UPRIGHT + PUSH)
    replay.start()
    result = diagram.simulate(t_final, context=context,
                              config=SimulatorConfig(accuracy=1e-6),
                              record={"x": plant.get_state_output_port(),
                                      "u": lqr.get_output_port()})
    replay.finish()

    x = result.outputs["x"]
    error = np.abs(x[:, -1] - X_UPRIGHT).max()
    tilt = np.abs(x[1] - np.pi).max()
    print(f"cart_pole_lqr: after {t_final:.0f} s |x - x*| = {error:.2e}, largest tilt "
          f"{tilt:.3f} rad, largest force {np.abs(result.outputs['u']).max():.2f} N")
    assert tilt < 0.3, f"cart_pole_lqr: the pole tilted by {tilt:.3f} rad"
    assert error < tolerance, f"cart_pole_lqr: final error {error:.2e} > {tolerance:g}"

    if args.plots:
        from merganser.framework.plotting import plot_simulation_result

        fig = plot_simulation_result(
            result, signals={"x": ["cart x (m)", "pole θ (rad)", "cart ẋ (m/s)",
                                   "pole θ̇ (rad/s)"], "u": ["force (N)"]},
            groups={"positions": ["cart x (m)", "pole θ (rad)"],
                    "velocities": ["cart ẋ (m/s)", "pole θ̇ (rad/s)"],
                    "actuation": ["force (N)"]},
            title="cart-pole balanced by LQR")
        _support.save_plots(args.plots, "cart_pole_lqr", {"state": fig})
    return {"final_error": error, "max_tilt": tilt, "K": K}


if __name__ == "__main__":
    main(sys.argv[1:])
