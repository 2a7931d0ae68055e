"""RandomGenerator: Drake's pseudo-random generator (a 32-bit Mersenne twister)."""

import numpy as np

#: std::mt19937's default seed, Drake's RandomGenerator default.
DEFAULT_SEED = 5489


class RandomGenerator(np.random.Generator):
    """A numpy Generator over the MT19937 bit generator (Drake's RandomGenerator), so it
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
        super().__init__(np.random.MT19937(int(seed)))

    def __call__(self):
        """The next 32-bit unsigned value of the stream."""
        return int(self.bit_generator.random_raw())

    @staticmethod
    def min():
        return 0

    @staticmethod
    def max():
        return 2 ** 32 - 1
