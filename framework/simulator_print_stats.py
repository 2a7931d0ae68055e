"""print_simulator_statistics: a summary of a run in Drake's PrintSimulatorStatistics
format (the general simulator counts, the integrator's, then the same as JSON)."""

import json
import math


def simulator_statistics(simulator):
    """The statistics ``print_simulator_statistics`` prints, as (label, value) pairs.

    Parameters
    ----------
    simulator : Simulator
    """
    integrator = simulator.get_integrator()
    rows = [
        ("system", simulator.get_system().get_name()),
        ("integration scheme", getattr(integrator, "scheme_name", type(integrator).__name__)),
        ("simulation time (s)", simulator.get_context().get_time()),
        ("simulator steps taken", simulator.get_num_steps_taken()),
        ("publishes", simulator.get_num_publishes()),
        ("discrete updates", simulator.get_num_discrete_updates()),
        ("unrestricted updates", simulator.get_num_unrestricted_updates()),
        ("integrator steps taken", integrator.get_num_steps_taken()),
        ("derivative evaluations", integrator.get_num_derivative_evaluations()),
        ("fixed-step mode", integrator.get_fixed_step_mode()),
        ("maximum step size (s)", integrator.get_maximum_step_size()),
    ]
    if not integrator.get_fixed_step_mode():
        rows += [
            ("accuracy in use", integrator.get_accuracy_in_use()),
            ("initial step taken (s)", integrator.get_actual_initial_step_size_taken()),
            ("largest step taken (s)", integrator.get_largest_step_size_taken()),
            ("smallest adapted step (s)", integrator.get_smallest_adapted_step_size_taken()),
            ("step shrinkages from error control",
             integrator.get_num_step_shrinkages_from_error_control()),
            ("step shrinkages from substep failures",
             integrator.get_num_step_shrinkages_from_substep_failures()),
        ]
    return rows


def _seconds(value):
    """A step size as Drake prints it: ``%10.6g``, NaN left-aligned in the same width."""
    value = float(value)
    return "nan".ljust(10) if math.isnan(value) else f"{value:10.6g}"


def _json_value(value):
    value = float(value) if not isinstance(value, int) else value
    return None if isinstance(value, float) and math.isnan(value) else value


def print_simulator_statistics(simulator):
    """Print the simulator's and its integrator's statistics in Drake's format."""
    integrator = simulator.get_integrator()
    name = type(integrator).__name__
    error_control = (integrator.supports_error_estimation()
                     and not integrator.get_fixed_step_mode())
    lines = [
        "General stats regarding discrete updates:",
        f"Number of time steps taken (simulator stats) = {simulator.get_num_steps_taken()}",
        f"Simulator publishes every time step: "
        f"{'true' if simulator.get_publish_every_time_step() else 'false'}",
        f"Number of publishes = {simulator.get_num_publishes()}",
        f"Number of discrete updates = {simulator.get_num_discrete_updates()}",
        f"Number of \"unrestricted\" updates = {simulator.get_num_unrestricted_updates()}",
        "",
    ]
    steps = integrator.get_num_steps_taken()
    if steps == 0:
        lines += ["Note: the following integrator took zero steps. The simulator exclusively "
                  "used the discrete solver.", ""]
    stats = {"integrator_num_steps_taken": steps,
             "integrator_num_derivative_evaluations":
                 integrator.get_num_derivative_evaluations()}
    lines += [f"Stats for integrator {name} with "
              f"{'error control' if error_control else 'fixed steps'}:",
              f"Number of time steps taken (integrator stats) = {steps}"]
    if error_control:
        initial = integrator.get_actual_initial_step_size_taken()
        largest = integrator.get_largest_step_size_taken()
        smallest = integrator.get_smallest_adapted_step_size_taken()
        shrunk = integrator.get_num_step_shrinkages_from_error_control()
        lines += [f"Initial time step taken = {_seconds(initial)} s",
                  f"Largest time step taken = {_seconds(largest)} s",
                  f"Smallest adapted step size = {_seconds(smallest)} s",
                  f"Number of steps shrunk due to error control = {shrunk}"]
        stats.update(integrator_actual_initial_step_size_taken=_json_value(initial),
                     integrator_largest_step_size_taken=_json_value(largest),
                     integrator_smallest_adapted_step_size_taken=_json_value(smallest),
                     integrator_num_step_shrinkages_from_error_control=shrunk)
    lines += [f"Number of derivative evaluations = "
              f"{integrator.get_num_derivative_evaluations()}",
              f"Number of steps shrunk due to convergence-based failure = "
              f"{integrator.get_num_step_shrinkages_from_substep_failures()}",
              f"Number of convergence-based step failures (should match) = "
              f"{integrator.get_num_substep_failures()}",
              "", "JSON Statistics:", json.dumps(stats, indent=2, sort_keys=True)]
    print("\n".join(lines))
