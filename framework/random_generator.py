"""RandomGenerator: Drake's pseudo-random generator (a 32-bit Mersenne twister)."""

import numpy as np

#: std::mt19937's default seed, Drake's RandomGenerator default.
DEFAULT_SEED = 5489


def _mt19937(seed):
    """An MT19937 bit generator seeded as std::mt19937(seed) is (init_genrand), so that
    its raw stream is Drake's; numpy's ``MT19937(seed)`` hashes the seed instead."""
    _, key, pos, _, _ = np.random.RandomState(seed).get_state()
    bit_generator = np.random.MT19937()
    bit_generator.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
    return bit_generator


class RandomGenerator(np.random.Generator):
    """A numpy Generator over std::mt19937's stream (Drake's RandomGenerator), so it
    goes wherever merganser takes a ``numpy.random.Generator``
    (``set_random_context``, ``RandomSource``...).

    Parameters
    ----------
    seed : int
        Default 5489, std::mt19937's (and Drake's) default seed.

    ``generator()`` returns the next raw 32-bit value, as Drake's ``operator()``.
    """

    def __init__(self, seed=DEFAULT_SEED):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"RandomGenerator: seed must be an int >= 0, got {seed!r}")
        super().__init__(_mt19937(int(seed)))

    def __call__(self):
        """The next 32-bit unsigned value of the stream."""
        return int(self.bit_generator.random_raw())

    @staticmethod
    def min():
        return 0

    @staticmethod
    def max():
        return 2 ** 32 - 1
