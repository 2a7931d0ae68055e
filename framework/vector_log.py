"""VectorLog: time-stamped samples of a vector signal (Drake's VectorLog)."""

import numpy as np


class VectorLog:
    """A growing record of (time, vector) samples.

    Storage grows by doubling, so appending is amortized O(size); the first sample
    reserves ``kDefaultCapacity`` samples (Drake's default capacity).

    Parameters
    ----------
    input_size : int
        Size of each sample.
    """

    kDefaultCapacity = 1000

    def __init__(self, input_size):
        self._size = int(input_size)
        if self._size < 0:
            raise ValueError(f"VectorLog: input_size must be >= 0, got {input_size}")
        self._times = np.zeros(0)
        self._data = np.zeros((self._size, 0))
        self._n = 0

    def get_input_size(self):
        """Size of each sample."""
        return self._size

    def num_samples(self):
        """Number of samples N."""
        return self._n

    def sample_times(self):
        """Sample times (s), shape (N,), read-only."""
        out = self._times[:self._n]
        out.flags.writeable = False
        return out

    def data(self):
        """Samples as columns, shape (input_size, N), read-only."""
        out = self._data[:, :self._n]
        out.flags.writeable = False
        return out

    def reserve(self, capacity):
        """Preallocate room for ``capacity`` samples."""
        capacity = int(capacity)
        if capacity > self._times.size:
            times = np.zeros(capacity)
            data = np.zeros((self._size, capacity))
            times[:self._n] = self._times[:self._n]
            data[:, :self._n] = self._data[:, :self._n]
            self._times, self._data = times, data

    def add_data(self, time, sample):
        """Append ``sample`` (shape (input_size,)) taken at ``time`` (s)."""
        sample = np.asarray(sample, dtype=float).reshape(-1)
        if sample.size != self._size:
            raise ValueError(
                f"VectorLog.add_data: sample has size {sample.size}, expected {self._size}")
        if self._n == self._times.size:
            self.reserve(max(self.kDefaultCapacity, 2 * self._n))
        self._times[self._n] = float(time)
        self._data[:, self._n] = sample
        self._n += 1

    def append_samples(self, times, data):
        """Append samples as columns (``times`` shape (N,), ``data`` shape
        (input_size, N)): the same as N calls of `add_data`."""
        times = np.asarray(times, dtype=float).reshape(-1)
        data = np.asarray(data, dtype=float).reshape(self._size, times.size)
        n = self._n + times.size
        if n > self._times.size:
            capacity = max(self.kDefaultCapacity, self._times.size)
            while capacity < n:
                capacity *= 2
            self.reserve(capacity)
        self._times[self._n:n] = times
        self._data[:, self._n:n] = data
        self._n = n

    def clear(self):
        """Remove every sample (keeps the storage)."""
        self._n = 0

    def __repr__(self):
        return f"<VectorLog size {self._size}, {self._n} samples>"
