"""RandomSource: piecewise-constant random samples, reproducible per context (Drake's)."""

import enum
import itertools

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._validation import as_positive_float, as_size

_DISTRIBUTIONS = {
    "uniform": lambda rng, n: rng.random(n),
    "gaussian": lambda rng, n: rng.standard_normal(n),
    "exponential": lambda rng, n: rng.standard_exponential(n),
}


class RandomDistribution(str, enum.Enum):
    """The distributions of RandomSource (Drake's RandomDistribution).

    Each member equals its string name (``RandomDistribution.kGaussian == "gaussian"``),
    so the enum and the strings are interchangeable.
    """

    kUniform = "uniform"          #: uniform on [0, 1)
    kGaussian = "gaussian"        #: N(0, 1)
    kExponential = "exponential"  #: exponential with rate 1

    __hash__ = str.__hash__           # equal to its string, so hashed as it


_ALIASES = {"kuniform": "uniform", "kgaussian": "gaussian", "kexponential": "exponential",
            "normal": "gaussian"}
_default_seeds = itertools.count(0)


def as_random_distribution(fn, distribution):
    """``distribution`` (a RandomDistribution, or its name as a string: "uniform",
    "kGaussian", ...) as a RandomDistribution; raise naming ``fn`` otherwise."""
    key = str(getattr(distribution, "name", distribution)).lower()
    key = _ALIASES.get(key, key)
    if key not in _DISTRIBUTIONS:
        raise ValueError(f"{fn}: distribution must be one of {sorted(_DISTRIBUTIONS)} "
                         f"(or a RandomDistribution), got {distribution!r}")
    return RandomDistribution(key)


class RandomSource(LeafSystem):
    """Outputs independent random samples, redrawn every ``sampling_interval_sec``.

    ::

        ┌──────────────┐
        │ RandomSource │ ──▶ output
        └──────────────┘

    Each element is drawn from the distribution: ``"uniform"`` on [0, 1),
    ``"gaussian"`` N(0, 1) or ``"exponential"`` with rate 1. The value drawn at
    t = k·h holds until (k+1)·h; the first one is drawn when the context is created.

    The numpy Generator lives in the context (abstract state 0) and the current sample
    in discrete state 0, so a run is reproducible and clones do not share a stream. A
    default context is seeded with ``seed`` (by default a per-instance number from a
    counter, so two sources in one diagram differ); ``set_random_context(context, rng)``
    reseeds from ``rng``.

    Parameters
    ----------
    distribution : RandomDistribution or str
        ``RandomDistribution.kUniform``, ``kGaussian``, ``kExponential``, or the strings
        ``"uniform"``, ``"gaussian"``, ``"exponential"``.
    num_outputs : int
        Size of the output.
    sampling_interval_sec : float
        h (s), > 0.
    seed : int, optional
        Seed of default contexts.
    """

    @lists_valid_keywords
    def __init__(self, distribution, num_outputs, sampling_interval_sec, seed=None):
        super().__init__()
        key = as_random_distribution("RandomSource", distribution)
        self._distribution = key
        self._n = as_size("RandomSource", "num_outputs", num_outputs)
        self._h = as_positive_float("RandomSource", "sampling_interval_sec", sampling_interval_sec)
        self._seed = next(_default_seeds) if seed is None else int(seed)
        self.declare_abstract_state(None)
        self.declare_discrete_state(self._n)
        self.declare_periodic_unrestricted_update_event(self._h, self._h, self._resample)
        self.declare_state_output_port("output", 0)

    def get_distribution(self):
        """The RandomDistribution (equal to its string name)."""
        return self._distribution

    def sampling_interval(self):
        return self._h

    def get_seed(self):
        """Seed used for default contexts."""
        return self._seed

    def _draw(self, rng):
        return _DISTRIBUTIONS[self._distribution](rng, self._n)

    def _reseed(self, state, seed):
        rng = np.random.default_rng(seed)
        state.get_mutable_abstract_state(0).set_value(rng)
        state.get_mutable_discrete_state(0).set_value(self._draw(rng))

    def set_default_state_and_parameters(self, context):
        self._reseed(context.get_mutable_state(), self._seed)

    def set_random_state(self, context, state, generator):
        """A new seed for the source's own stream, drawn from ``generator``."""
        self._reseed(state, int(generator.integers(0, 2 ** 63)))

    def _resample(self, context, state):
        rng = state.get_abstract_state(0).get_value()
        state.get_mutable_discrete_state(0).set_value(self._draw(rng))


def add_random_inputs(sampling_interval_sec, builder):
    """Connect a RandomSource to every random input port in ``builder`` that is neither
    connected nor exported (Drake's AddRandomInputs).

    A port is random when declared with ``random_type`` (a RandomDistribution); its source
    draws that distribution, ``sampling_interval_sec`` apart.

    Parameters
    ----------
    sampling_interval_sec : float
        h (s), > 0.
    builder : DiagramBuilder

    Returns
    -------
    int
        The number of RandomSources added.
    """
    as_positive_float("add_random_inputs", "sampling_interval_sec", sampling_interval_sec)
    added = 0
    for system in list(builder.get_systems()):
        for i in range(system.num_input_ports()):
            port = system.get_input_port(i)
            if not port.is_random() or builder.is_connected_or_exported(port):
                continue
            source = builder.add_system(RandomSource(port.get_random_type(), port.size(),
                                                     sampling_interval_sec))
            builder.connect(source.get_output_port(0), port)
            added += 1
    return added
