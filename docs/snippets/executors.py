import concurrent.futures, multiprocessing
with concurrent.futures.ProcessPoolExecutor(
        mp_context=multiprocessing.get_context("spawn")) as pool:   # spawn: numba threads and fork do not mix
    results = monte_carlo_simulation(make_simulator, output, 5.0, 1000, executor=pool)

# Dask (pip install dask distributed): a distributed.Client or client.get_executor()
from distributed import Client
client = Client("tcp://scheduler-host:8786")          # or Client(LocalCluster()) on one machine
results = monte_carlo_simulation(make_simulator, output, 5.0, 1000, executor=client)
