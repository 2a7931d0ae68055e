"""PidControlledSystem: a plant under PID feedback, as one Diagram (Drake's)."""

import collections

import numpy as np

from merganser.framework import Adder, Diagram, DiagramBuilder, Saturation

from .pid_controller import PidController

#: The two inputs left open by ``connect_controller``: the feedforward term added to
#: the controller's output, and the controller's desired state.
ConnectResult = collections.namedtuple("ConnectResult",
                                       ["control_input_port", "state_input_port"])


def _gains(fn, kp, ki, kd, size):
    """Scalar gains broadcast to ``size`` entries; vectors kept (equal sizes)."""
    gains = []
    for name, k in (("kp", kp), ("ki", ki), ("kd", kd)):
        if k is None:
            raise TypeError(f"{fn}: missing gain {name}")
        arr = np.asarray(k, dtype=float)
        gains.append(np.full(size, float(arr)) if arr.ndim == 0 else arr.reshape(-1))
    return gains


class PidControlledSystem(Diagram):
    """A plant with a PidController closing the loop from one of its outputs (its state)
    to one of its inputs, plus a feedforward term.

    ::

        feedforward_control ──▶ ┌─────────────────────┐ ──▶ (the plant's outputs)
              desired_state ──▶ │ PidControlledSystem │
                                └─────────────────────┘

    Inside, the plant's input ``plant_input_port_index`` receives
    u = u_ff + PID(desired_state, x) with x the plant's output ``state_output_port_index``
    (projected by ``feedback_selector`` when given); every output of the plant is
    exported under its own name.

    Parameters
    ----------
    plant : System
        Not yet part of a diagram.
    kp, ki, kd : float or array_like
        Scalars apply to every input of the controlled port; vectors give one gain per
        element (then ``feedback_selector`` defaults to the identity of size 2·len(kp)).
    state_output_port_index, plant_input_port_index : int
    feedback_selector : array_like, shape (2·len(kp), state size), optional
        Maps the plant's state output to the controlled [q; v].
    """

    def __init__(self, plant, *args, kp=None, ki=None, kd=None, state_output_port_index=0,
                 plant_input_port_index=0, feedback_selector=None):
        super().__init__()
        fn = "PidControlledSystem"
        if args and np.ndim(args[0]) == 2:          # Drake's (plant, feedback_selector, ...)
            feedback_selector, args = args[0], args[1:]
        named = dict(zip(("kp", "ki", "kd", "state_output_port_index",
                          "plant_input_port_index"), args))
        kp = named.get("kp", kp)
        ki = named.get("ki", ki)
        kd = named.get("kd", kd)
        state_output_port_index = named.get("state_output_port_index", state_output_port_index)
        plant_input_port_index = named.get("plant_input_port_index", plant_input_port_index)
        builder = DiagramBuilder()
        self._plant = builder.add_system(plant)
        plant_input = plant.get_input_port(plant_input_port_index)
        plant_output = plant.get_output_port(state_output_port_index)
        scalar = np.ndim(kp) == 0
        kp, ki, kd = _gains(fn, kp, ki, kd, plant_input.size())
        if feedback_selector is None:
            feedback_selector = np.eye(2 * (plant_input.size() if scalar else kp.size))
        result = self.connect_controller(plant_input, plant_output, kp, ki, kd, builder,
                                         feedback_selector=feedback_selector)
        builder.export_input(result.control_input_port, "feedforward_control")
        builder.export_input(result.state_input_port, "desired_state")
        for i in range(plant.num_output_ports()):
            port = plant.get_output_port(i)
            builder.export_output(port, port.get_name())
        self._state_output_index = plant_output.get_index()
        builder.build_into(self)

    def plant(self):
        """The controlled system."""
        return self._plant

    def get_control_input_port(self):
        """The feedforward input u_ff, added to the controller's output."""
        return self.get_input_port(0)

    def get_state_input_port(self):
        """The desired state input of the controller."""
        return self.get_input_port(1)

    def get_state_output_port(self):
        """The plant's state output (the one fed back)."""
        return self.get_output_port(self._state_output_index)

    @staticmethod
    def connect_controller(plant_input, plant_output, kp, ki, kd, builder, *,
                           feedback_selector=None):
        """Add a PidController and an Adder to ``builder`` so that ``plant_input`` gets
        the controller's output plus a feedforward term; returns the ConnectResult
        ``(control_input_port, state_input_port)`` of the two inputs left open.
        ``feedback_selector`` defaults to the identity on ``plant_output``."""
        if feedback_selector is None:
            feedback_selector = np.eye(plant_output.size())
        controller = builder.add_system(PidController(
            state_projection=feedback_selector, kp=kp, ki=ki, kd=kd))
        adder = builder.add_system(Adder(2, plant_input.size()))
        builder.connect(plant_output, controller.get_input_port_estimated_state())
        builder.connect(controller.get_output_port_control(), adder.get_input_port(0))
        builder.connect(adder.get_output_port(), plant_input)
        return ConnectResult(adder.get_input_port(1), controller.get_input_port_desired_state())

    @staticmethod
    def connect_controller_with_input_saturation(plant_input, plant_output, kp, ki, kd,
                                                 min_plant_input, max_plant_input, builder,
                                                 *, feedback_selector=None):
        """``connect_controller`` with a Saturation between the sum and ``plant_input``."""
        saturation = builder.add_system(Saturation(min_plant_input, max_plant_input))
        builder.connect(saturation.get_output_port(), plant_input)
        return PidControlledSystem.connect_controller(
            saturation.get_input_port(), plant_output, kp, ki, kd, builder,
            feedback_selector=feedback_selector)
