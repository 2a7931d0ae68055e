"""monte_carlo_simulation: per-sample seeds from (seed, index), bit-identical results
serially, on a process pool and on a Dask LocalCluster, Drake's set_random_context
semantics, failing samples recorded with their index and exception, progress bar."""

import concurrent.futures
import logging
import multiprocessing

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from merganser.framework import RandomGenerator, Simulator
from merganser.framework.monte_carlo import (
    RandomSimulationResult, SampleError, monte_carlo_simulation, random_simulation,
    sample_seed,
)
from monte_carlo_models import (
    ANGLE_RANGE, DAMPING, LENGTH, MASS_RANGE, G, leaf_initial_and_final,
    make_leaf_pendulum_simulator, make_plant_pendulum_simulator,
    make_sometimes_failing_simulator, plant_state_and_mass, unpicklable_output,
)

NUM_SAMPLES = 64
SEED = 2024
FINAL_TIME = 1.0


@pytest.fixture(scope="module")
def pool():
    """Two worker processes started with 'spawn' (numba's threading layer and fork do
    not mix once a parallel kernel has run in the parent)."""
    executor = concurrent.futures.ProcessPoolExecutor(
        max_workers=2, mp_context=multiprocessing.get_context("spawn"))
    yield executor
    executor.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(scope="module")
def serial_results():
    return monte_carlo_simulation(make_plant_pendulum_simulator, plant_state_and_mass,
                                  FINAL_TIME, NUM_SAMPLES, seed=SEED)


def mt19937(seed):
    """A sample's stream computed independently: numpy's own MT19937 seeded with `seed`."""
    return np.random.Generator(np.random.MT19937(seed))


def outputs(results):
    return np.array([r.output for r in results])


def assert_bit_identical(results, reference):
    assert [r.index for r in results] == list(range(NUM_SAMPLES))
    assert [r.seed for r in results] == [r.seed for r in reference]
    assert all(r.exception is None for r in results)
    a, b = outputs(results), outputs(reference)
    assert a.shape == (NUM_SAMPLES, 3)
    assert np.array_equal(a, b)                    # bit for bit, not approximately
    assert a.tobytes() == b.tobytes()


# ---- seeds ---------------------------------------------------------------------------------
def test_sample_seed_is_the_index_th_child_of_the_base_seed_sequence():
    children = np.random.SeedSequence(7).spawn(5)
    for i, child in enumerate(children):
        words = child.generate_state(2, np.uint64)
        assert sample_seed(7, i) == int(words[0]) + (int(words[1]) << 64)
    seeds = {sample_seed(s, i) for s in range(4) for i in range(50)}
    assert len(seeds) == 200                       # all distinct


def test_each_sample_gets_the_generator_of_its_seed(serial_results):
    masses = outputs(serial_results)[:, 2]
    for r, mass in zip(serial_results, masses):
        assert r.seed == sample_seed(SEED, r.index)
        assert mass == mt19937(r.seed).uniform(*MASS_RANGE)
    assert len(set(masses)) == NUM_SAMPLES
    assert MASS_RANGE[0] <= masses.min() and masses.max() <= MASS_RANGE[1]


def test_a_sample_is_reproduced_from_its_seed(serial_results):
    r = serial_results[17]
    again = random_simulation(make_plant_pendulum_simulator, plant_state_and_mass, FINAL_TIME,
                              mt19937(r.seed))
    assert np.array_equal(again, r.output)
    snapshot = r.generator_snapshot                 # Drake's name: the generator as it started
    assert np.array_equal(random_simulation(make_plant_pendulum_simulator, plant_state_and_mass,
                                            FINAL_TIME, snapshot), r.output)
    assert r.generator_snapshot is not snapshot     # a fresh one each time
    assert isinstance(snapshot, RandomGenerator)     # Drake's type, as Drake's test checks


def test_make_simulator_is_given_a_random_generator():
    seen = []

    def make_simulator(generator):
        seen.append((type(generator), generator.uniform()))
        return make_leaf_pendulum_simulator(generator)
    results = monte_carlo_simulation(make_simulator, leaf_initial_and_final, 0.0, 2, seed=3)
    assert [t for t, _ in seen] == [RandomGenerator, RandomGenerator]
    assert [x for _, x in seen] == [mt19937(r.seed).uniform() for r in results]


# ---- the same results on every executor ------------------------------------------------------
def test_process_pool_gives_bit_identical_results(serial_results, pool):
    results = monte_carlo_simulation(make_plant_pendulum_simulator, plant_state_and_mass,
                                     FINAL_TIME, NUM_SAMPLES, seed=SEED, executor=pool)
    assert all(isinstance(r, RandomSimulationResult) for r in results)
    assert_bit_identical(results, serial_results)


def test_dask_local_cluster_gives_bit_identical_results(serial_results):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=logging.ERROR) as cluster, \
            distributed.Client(cluster) as client:
        from_client = monte_carlo_simulation(make_plant_pendulum_simulator,
                                             plant_state_and_mass, FINAL_TIME, NUM_SAMPLES,
                                             seed=SEED, executor=client)
        from_executor = monte_carlo_simulation(make_plant_pendulum_simulator,
                                               plant_state_and_mass, FINAL_TIME, NUM_SAMPLES,
                                               seed=SEED, executor=client.get_executor())
    assert_bit_identical(from_client, serial_results)
    assert_bit_identical(from_executor, serial_results)


def test_results_depend_on_the_seed(serial_results):
    other = monte_carlo_simulation(make_plant_pendulum_simulator, plant_state_and_mass,
                                   FINAL_TIME, 4, seed=SEED + 1)
    assert not np.any(outputs(other)[:, 2] == outputs(serial_results)[:4, 2])
    # A prefix of a longer run is the shorter run: samples do not depend on num_samples.
    prefix = monte_carlo_simulation(make_plant_pendulum_simulator, plant_state_and_mass,
                                    FINAL_TIME, 4, seed=SEED)
    assert np.array_equal(outputs(prefix), outputs(serial_results)[:4])


# ---- Drake's semantics ------------------------------------------------------------------------
def test_set_random_context_draws_state_then_parameters_and_the_run_is_the_ode_solution():
    results = monte_carlo_simulation(make_leaf_pendulum_simulator, leaf_initial_and_final,
                                     FINAL_TIME, 3, seed=5)
    for r in results:
        rng = mt19937(r.seed)
        theta0, mass = rng.uniform(*ANGLE_RANGE), rng.uniform(*MASS_RANGE)
        assert r.output[2] == mass

        def f(t, x):
            return [x[1], -(G / LENGTH) * np.sin(x[0]) - DAMPING * x[1] / (mass * LENGTH ** 2)]

        exact = solve_ivp(f, (0.0, FINAL_TIME), [theta0, 0.0], rtol=1e-12, atol=1e-12).y[:, -1]
        np.testing.assert_allclose(r.output[:2], exact, atol=2e-3)


def test_values_set_in_the_returned_context_are_reset_by_set_random_context():
    def make_simulator(generator):
        simulator = make_leaf_pendulum_simulator(generator)
        simulator.get_mutable_context().set_continuous_state([3.0, 3.0])   # overwritten
        return simulator

    def initial_state(system, context):
        return context.get_continuous_state_vector().copy()

    out = random_simulation(make_simulator, initial_state, 0.0, np.random.default_rng(1))
    assert out[0] == np.random.default_rng(1).uniform(*ANGLE_RANGE) and out[1] == 0.0


# ---- failures -----------------------------------------------------------------------------------
def expected_failures(num_samples, seed):
    draws = [mt19937(sample_seed(seed, i)).uniform() for i in range(num_samples)]
    return ({i for i, x in enumerate(draws) if x < 0.25},
            {i for i, x in enumerate(draws) if x > 0.9})


def check_failing_run(results, num_samples, seed):
    low, high = expected_failures(num_samples, seed)
    assert low and high                     # the seed exercises both kinds of failure
    assert [r.index for r in results] == list(range(num_samples))
    for r in results:
        if r.index in low:
            assert isinstance(r.exception, ValueError) and "is below 0.25" in str(r.exception)
            assert r.output is None and not r.succeeded
            assert "make_sometimes_failing_simulator" in r.traceback
        elif r.index in high:
            # Its constructor takes two arguments, so it cannot cross a process boundary.
            assert type(r.exception) is SampleError
            assert str(r.exception).startswith("monte_carlo_models.UnpicklableError: draw")
            assert r.output is None
        else:
            assert r.succeeded and r.traceback is None
            assert r.output.shape == (3,) and np.all(np.isfinite(r.output))


def test_failing_samples_are_recorded_with_index_and_exception_and_the_others_complete(pool):
    n, seed = 24, 11
    serial = monte_carlo_simulation(make_sometimes_failing_simulator, leaf_initial_and_final,
                                    FINAL_TIME, n, seed=seed)
    check_failing_run(serial, n, seed)
    pooled = monte_carlo_simulation(make_sometimes_failing_simulator, leaf_initial_and_final,
                                    FINAL_TIME, n, seed=seed, executor=pool)
    check_failing_run(pooled, n, seed)
    for a, b in zip(serial, pooled):
        assert str(a.exception) == str(b.exception)
        assert (a.output is None and b.output is None) or np.array_equal(a.output, b.output)


def test_a_result_the_executor_cannot_return_is_recorded_as_that_samples_failure(pool):
    results = monte_carlo_simulation(make_leaf_pendulum_simulator, unpicklable_output, 0.1, 3,
                                     executor=pool)
    assert [r.index for r in results] == [0, 1, 2]
    assert all(r.output is None and r.exception is not None for r in results)
    assert all("pickle" in (str(r.exception) + r.traceback).lower() for r in results)


def test_an_unpicklable_factory_fails_every_sample_on_a_process_pool(pool):
    def local_factory(generator):                  # a closure: not picklable
        return make_leaf_pendulum_simulator(generator)

    results = monte_carlo_simulation(local_factory, leaf_initial_and_final, 0.1, 2,
                                     executor=pool)
    assert [r.index for r in results] == [0, 1]
    assert all(r.output is None and "pickle" in (str(r.exception) + r.traceback).lower()
               for r in results)
    serial = monte_carlo_simulation(local_factory, leaf_initial_and_final, 0.1, 2)
    assert all(r.succeeded for r in serial)


# ---- arguments and progress -------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, error, match", [
    ({"num_samples": -1}, ValueError, "num_samples must be >= 0, got -1"),
    ({"num_samples": 2.5}, TypeError, "num_samples must be an integer, got float"),
    ({"seed": -3}, ValueError, "seed must be >= 0, got -3"),
    ({"final_time": float("nan")}, ValueError, "final_time must be finite"),
    ({"make_simulator": 3}, TypeError, "make_simulator must be callable, got int"),
    ({"executor": "cluster"}, TypeError, "executor must be None, a concurrent.futures"),
])
def test_bad_arguments_raise_naming_the_argument(kwargs, error, match):
    args = dict(make_simulator=make_leaf_pendulum_simulator, output=leaf_initial_and_final,
                final_time=1.0, num_samples=2)
    args.update(kwargs)
    with pytest.raises(error, match=f"monte_carlo_simulation: {match}"):
        monte_carlo_simulation(**args)


def test_zero_samples_give_an_empty_list():
    assert monte_carlo_simulation(make_leaf_pendulum_simulator, leaf_initial_and_final, 1.0,
                                  0) == []


def test_progress_bar_counts_completed_samples(capsys):
    monte_carlo_simulation(make_leaf_pendulum_simulator, leaf_initial_and_final, 0.1, 5,
                           progress=True)
    err = capsys.readouterr().err
    assert "monte_carlo_simulation" in err and "5/5" in err
    monte_carlo_simulation(make_leaf_pendulum_simulator, leaf_initial_and_final, 0.1, 5,
                           progress=False)
    assert capsys.readouterr().err == ""


def test_simulator_factory_may_return_an_initialized_simulator():
    def make_simulator(generator):
        simulator = Simulator(make_leaf_pendulum_simulator(generator).get_system())
        simulator.initialize()
        return simulator

    a = random_simulation(make_simulator, leaf_initial_and_final, 0.5, np.random.default_rng(4))
    b = random_simulation(make_leaf_pendulum_simulator, leaf_initial_and_final, 0.5,
                          np.random.default_rng(4))
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


def test_pydrake_keywords_generator_and_parallelism():
    from merganser.framework import Parallelism
    runs = [monte_carlo_simulation(make_simulator=make_leaf_pendulum_simulator,
                                   output=leaf_initial_and_final, final_time=0.2,
                                   num_samples=3, generator=RandomGenerator(7),
                                   parallelism=p, progress=False)
            for p in (None, Parallelism(num_threads=2))]
    outputs = [[np.asarray(r.output).tolist() for r in run] for run in runs]
    assert outputs[0] == outputs[1]                            # the same samples either way
    assert len({str(o) for o in outputs[0]}) == 3              # three different samples
    with pytest.raises(TypeError, match="give seed or generator"):
        monte_carlo_simulation(make_leaf_pendulum_simulator, leaf_initial_and_final, 0.2, 2,
                               seed=1, generator=RandomGenerator(1))
