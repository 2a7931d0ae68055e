import concurrent.futures, ray

class RayExecutor(concurrent.futures.Executor):
    def __init__(self):
        self._remote = {}
    def submit(self, fn, /, *args, **kwargs):
        remote = self._remote.setdefault(fn, ray.remote(fn))
        return remote.remote(*args, **kwargs).future()

ray.init(address="auto")
results = monte_carlo_simulation(make_simulator, output, 5.0, 1000, executor=RayExecutor())
