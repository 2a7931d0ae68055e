"""Drake's Acrobot swung up by energy shaping and caught at the top by LQR.

Shows a user-written controller LeafSystem that evaluates the plant's dynamics (mass
matrix, bias and gravity terms, energies) on its own plant context, combining:

- swing-up (Spong): collocated partial feedback linearization makes the elbow follow
  q̈2 = −kp q2 − kd q̇2 + ke (E − E_top) q̇1 with (ke, kp, kd) = (5, 50, 5), which pumps
  the total energy E toward that of the upright rest state E_top;
- balance: the LQR of the plant linearized at the upright state x* = [π, 0, 0, 0]
  (``linear_quadratic_regulator`` on the plant, Q = diag(10, 10, 1, 1), R = 1), used
  whenever the cost-to-go (x − x*)ᵀ S (x − x*) is below 1000 (Drake's threshold).

The run starts hanging, barely displaced (x = [0.1, 0, 0, 0]), swings up (the handover
happens near t = 2.9 s) and balances until 15 s (8 s with ``--quick``); the torque is
saturated at ±50 N·m. Checks: the LQR gain matches Drake's [-278.44, -112.29, -119.73,
-56.83] to 1e-2; the swing-up starts outside the LQR basin, the controller hands over and
is balancing at the end, within 1e-6 of x* (2e-2 after the 8 s of ``--quick``).

Run: ``python examples/acrobot_lqr.py [--quick] [--html OUT] [--plots DIR]``
"""

import sys

import numpy as np

import _support
from merganser.controllers import linear_quadratic_regulator
from merganser.framework import DiagramBuilder, LeafSystem, SimulatorConfig, linearize

X_UPRIGHT = np.array([np.pi, 0.0, 0.0, 0.0])
K_DRAKE = np.array([-278.442, -112.291, -119.725, -56.828])
BALANCE_THRESHOLD = 1e3
U_LIMIT = 50.0


def wrap_to_upright(x):
    """x − x* with the shoulder angle wrapped to (−π, π] around π (shape (4,))."""
    dx = np.asarray(x, dtype=float) - X_UPRIGHT
    dx[0] = (dx[0] + np.pi) % (2.0 * np.pi) - np.pi
    dx[1] = (dx[1] + np.pi) % (2.0 * np.pi) - np.pi
    return dx


class AcrobotSwingUpController(LeafSystem):
    """Energy-shaping swing-up with an LQR balance near the top.

    ::

        estimated_state ──▶ ┌──────────────────────────┐
                            │ AcrobotSwingUpController │ ──▶ elbow_torque
                            └──────────────────────────┘    mode (0 swing-up, 1 LQR)

    Parameters
    ----------
    plant : MultibodyPlant
        The acrobot (a private context is used to evaluate its dynamics).
    K : ndarray, shape (1, 4)
        LQR gain about `X_UPRIGHT`.
    S : ndarray, shape (4, 4)
        LQR cost-to-go.
    ke, kp, kd : float
        Energy, elbow position and elbow velocity gains of the swing-up.
    """

    def __init__(self, plant, K, S, ke=5.0, kp=50.0, kd=5.0):
        super().__init__()
        self._plant = plant
        self._ctx = plant.create_default_context()
        self._K, self._S = np.asarray(K).reshape(1, 4), np.asarray(S)
        self._ke, self._kp, self._kd = ke, kp, kd
        plant.set_positions_and_velocities(self._ctx, X_UPRIGHT)
        self._E_top = plant.calc_potential_energy(self._ctx) + \
            plant.calc_kinetic_energy(self._ctx)
        self.declare_vector_input_port("estimated_state", 4)
        self.declare_vector_output_port("elbow_torque", 1, self._calc_torque)
        self.declare_vector_output_port("mode", 1, self._calc_mode)

    def _is_balancing(self, x):
        dx = wrap_to_upright(x)
        return dx @ self._S @ dx < BALANCE_THRESHOLD

    def _calc_mode(self, context, output):
        x = self.get_input_port(0).eval(context)
        output.set_value([1.0 if self._is_balancing(x) else 0.0])

    def calc_swing_up_torque(self, x):
        """Elbow torque of the energy-shaping law at state `x` (shape (4,))."""
        plant, ctx = self._plant, self._ctx
        plant.set_positions_and_velocities(ctx, x)
        M = plant.calc_mass_matrix(ctx)
        c = plant.calc_bias_term(ctx) - plant.calc_gravity_generalized_forces(ctx)
        E = plant.calc_kinetic_energy(ctx) + plant.calc_potential_energy(ctx)
        q2 = (x[1] + np.pi) % (2.0 * np.pi) - np.pi
        # Desired elbow acceleration: PD on the elbow plus energy pumping through q̇1.
        a2 = -self._kp * q2 - self._kd * x[3] + self._ke * (E - self._E_top) * x[2]
        # Collocated PFL: M a + c = [0, u]; eliminate a1 with the first row.
        a1 = -(c[0] + M[0, 1] * a2) / M[0, 0]
        return M[1, 0] * a1 + M[1, 1] * a2 + c[1]

    def _calc_torque(self, context, output):
        x = self.get_input_port(0).eval(context)
        if self._is_balancing(x):
            u = float(-(self._K @ wrap_to_upright(x))[0])
        else:
            u = self.calc_swing_up_torque(x)
        output.set_value([np.clip(u, -U_LIMIT, U_LIMIT)])


def make_acrobot(builder):
    """The continuous plant and its scene graph, added to `builder`."""
    return _support.add_model_with_geometry(builder, "drake", "acrobot", "Acrobot.urdf")


def design_lqr(plant):
    """(K, S) of the LQR about the upright equilibrium."""
    upright, actuation = _support.equilibrium_context(plant, X_UPRIGHT)
    lqr = linear_quadratic_regulator(plant, upright, np.diag([10.0, 10.0, 1.0, 1.0]),
                                     np.eye(1), input_port_index=actuation.get_index())
    K = -lqr.D()
    # S from the Riccati equation of the same linearization.
    lin = linearize(plant, upright, input_port_index=actuation.get_index(),
                    output_port_index=plant.get_state_output_port().get_index())
    _, S = linear_quadratic_regulator(lin.A(), lin.B(), np.diag([10.0, 10.0, 1.0, 1.0]),
                                      np.eye(1))
    return K, S


def main(argv=None):
    args = _support.parse_args(argv, __doc__)
    x0 = np.array([0.1, 0.0, 0.0, 0.0])
    t_final, tolerance = (8.0, 2e-2) if args.quick else (15.0, 1e-6)

    builder = DiagramBuilder()
    plant, scene_graph = make_acrobot(builder)
    K, S = design_lqr(plant)
    print(f"acrobot_lqr: K = {np.array2string(K.ravel(), precision=3)} (Drake: {K_DRAKE})")
    assert np.allclose(K.ravel(), K_DRAKE, atol=1e-2), "acrobot_lqr: K differs from Drake's"

    controller = builder.add_named_system("swing_up", AcrobotSwingUpController(plant, K, S))
    builder.connect(plant.get_state_output_port(), controller.get_input_port(0))
    builder.connect(controller.get_output_port("elbow_torque"),
                    plant.get_actuation_input_port())
    replay = _support.Replay(args.html, builder, scene_graph,
                             camera=((0.0, -5.5, 0.0), (0.0, 0.0, -0.3)))
    diagram = builder.build()

    context = diagram.create_default_context()
    plant.set_positions_and_velocities(plant.get_my_context_from_root(context), x0)
    replay.start()
    result = diagram.simulate(t_final, context=context,
                              config=SimulatorConfig(accuracy=1e-5, max_step_size=0.01),
                              record={"x": plant.get_state_output_port(),
                                      "u": controller.get_output_port("elbow_torque"),
                                      "mode": controller.get_output_port("mode")})
    replay.finish()

    x, mode, t = result.outputs["x"], result.outputs["mode"][0], result.time
    error = np.abs(wrap_to_upright(x[:, -1])).max()
    handover = t[np.argmax(mode > 0.5)] if np.any(mode > 0.5) else None
    print(f"acrobot_lqr: handed over to LQR at t = {handover} s; after {t_final:.0f} s "
          f"|x - x*| = {error:.2e}")
    assert handover is not None, "acrobot_lqr: the swing-up never reached the LQR basin"
    assert handover > 0.5, "acrobot_lqr: started inside the LQR basin (no swing-up)"
    assert mode[-1] == 1.0, "acrobot_lqr: not balancing at the end"
    assert error < tolerance, f"acrobot_lqr: final error {error:.2e} > {tolerance:g}"

    if args.plots:
        from merganser.framework.plotting import plot_simulation_result

        fig = plot_simulation_result(
            result, signals={"x": ["shoulder q1", "elbow q2", "q̇1", "q̇2"],
                             "u": ["elbow torque (N·m)"], "mode": ["LQR active"]},
            groups={"angles (rad)": ["shoulder q1", "elbow q2"],
                    "rates (rad/s)": ["q̇1", "q̇2"],
                    "torque (N·m)": ["elbow torque (N·m)"], "mode": ["LQR active"]},
            title="acrobot: energy-shaping swing-up, LQR balance")
        _support.save_plots(args.plots, "acrobot_lqr", {"state": fig})
    return {"final_error": error, "handover_time": handover, "K": K}


if __name__ == "__main__":
    main(sys.argv[1:])
