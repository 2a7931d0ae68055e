"""print_simulator_statistics: a summary of a run (Drake's PrintSimulatorStatistics)."""


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


def print_simulator_statistics(simulator):
    """Print the simulator's and its integrator's statistics, one per line."""
    rows = simulator_statistics(simulator)
    width = max(len(label) for label, _ in rows)
    print("\n".join(f"{label:<{width}} : {value}" for label, value in rows))
