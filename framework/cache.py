"""Dependency tracking and cache entries.

Every value that can change in a Context (time, accuracy, each state group, each
parameter, each input port) has a *tracker*. Every computed value (an output port's
value, a declared cache entry, the time derivatives) has a *cache entry*. A cache entry
subscribes to the trackers and entries it depends on (its prerequisite tickets);
writing to the Context notifies the written tracker, which marks every downstream cache
entry out of date. ``eval`` recomputes only out-of-date entries.

The downstream set of each tracker is computed once (depth-first over subscribers) and
reused until the wiring of the context tree changes (fixing an input port value), which
bumps the root's topology version.

Repeated writes of one value (a loop setting q and calling queries that read the state
directly) need not walk the downstream set every time: the context tree's root counts
the cache entries of leaf contexts made valid (``validations``; the leaf evaluations,
``CacheEntry.eval``, ``OutputPort.eval`` and ``LeafSystem.eval_time_derivatives``, add
one each time they set ``valid = True``), and `notify_changed` skips the walk when
nothing was made valid since its last walk from the same tracker, so every entry
downstream is still out of date. Entries made valid elsewhere (a diagram's time
derivatives, which integrators also mark current) are `UncountedCacheEntryValue`s: a
downstream set that holds one is walked at every write.
"""

import numpy as np


class DependencyTicket(tuple):
    """A prerequisite token (Drake's DependencyTicket); a tuple, compared by value."""

    __slots__ = ()


class Tickets:
    """Prerequisite tickets accepted by ``prerequisites_of_calc`` (Drake's DependencyTicket).

    Use the ``*_ticket()`` methods of a LeafSystem; these are the underlying tokens.
    """

    NOTHING = DependencyTicket(("nothing",))
    TIME = DependencyTicket(("time",))
    ACCURACY = DependencyTicket(("accuracy",))
    Q = DependencyTicket(("q",))
    V = DependencyTicket(("v",))
    Z = DependencyTicket(("z",))
    XC = DependencyTicket(("xc",))
    XD = DependencyTicket(("xd",))
    XA = DependencyTicket(("xa",))
    ALL_STATE = DependencyTicket(("all_state",))
    PN = DependencyTicket(("pn",))
    PA = DependencyTicket(("pa_all",))
    ALL_PARAMETERS = DependencyTicket(("all_parameters",))
    ALL_INPUTS = DependencyTicket(("all_inputs",))
    ALL_SOURCES_EXCEPT_INPUT_PORTS = DependencyTicket(("all_sources_except_inputs",))
    ALL_SOURCES = DependencyTicket(("all_sources",))
    XCDOT = DependencyTicket(("xcdot",))

    @staticmethod
    def discrete_state(i):
        return DependencyTicket(("xd_i", int(i)))

    @staticmethod
    def abstract_state(i):
        return DependencyTicket(("xa_i", int(i)))

    @staticmethod
    def input_port(i):
        return DependencyTicket(("u", int(i)))

    @staticmethod
    def numeric_parameter(i):
        return DependencyTicket(("p", int(i)))

    @staticmethod
    def abstract_parameter(i):
        return DependencyTicket(("pa", int(i)))

    @staticmethod
    def cache_entry(i):
        return DependencyTicket(("cache", int(i)))


class Tracker:
    """A source of change (a context value) that notifies its subscribers."""

    __slots__ = ("subscribers", "closure", "closure_version", "closure_counted", "walked",
                 "description", "__weakref__")

    def __init__(self, description=""):
        self.subscribers = []
        self.closure = None
        self.closure_version = -1
        self.closure_counted = False    # every entry of the closure is counted when made valid
        self.walked = -1        # the root's validations count at the last notify_changed walk
        self.description = description

    def subscribe(self, node):
        if node not in self.subscribers:
            self.subscribers.append(node)

    def unsubscribe(self, node):
        try:
            self.subscribers.remove(node)
        except ValueError:
            pass


class CacheEntryValue(Tracker):
    """A cached computed value and its up-to-date flag.

    Attributes
    ----------
    valid : bool
        True while the value is current.
    value : object
        The storage (an ndarray for vector values, any object for abstract ones).
    """

    __slots__ = ("valid", "value", "ro", "holder", "enabled")

    #: Making this entry valid adds one to its root's ``validations`` (module docstring).
    counted = True

    def __init__(self, value, description="", holder=None):
        super().__init__(description)
        self.valid = False
        self.enabled = True        # False: every evaluation recomputes (caching disabled)
        self.holder = holder
        self.store(value)

    def store(self, value):
        """Hold ``value``; ``ro`` becomes its read-only view (the object itself when it is
        no ndarray)."""
        self.value = value
        if isinstance(value, np.ndarray):
            ro = value.view()
            ro.flags.writeable = False
            self.ro = ro
        else:
            self.ro = value

    def is_out_of_date(self):
        return not self.valid

    def is_cache_entry_disabled(self):
        return not self.enabled

    def disable_caching(self):
        self.enabled = False
        self.valid = False

    def enable_caching(self):
        self.enabled = True

    def mark_out_of_date(self):
        self.valid = False

    def get_value_or_throw(self):
        """The stored value; raises RuntimeError while it is out of date (Drake's
        CacheEntryValue::GetValueOrThrow)."""
        if not self.valid:
            raise RuntimeError(f"CacheEntryValue.get_value_or_throw: cache entry "
                               f"'{self.description}': the current value is out of date")
        return self.ro

    def get_mutable_value_or_throw(self):
        """The stored value, for writing in place (Drake's GetMutableValueOrThrow)."""
        return self.value


def frozen_cache_error(entry):
    """The error for an out-of-date entry evaluated while its context's cache is frozen."""
    return RuntimeError(
        f"cache entry '{entry.description}' is out of date but the context's cache is frozen "
        f"(Context.freeze_cache()); call unfreeze_cache() before changing what it depends on")


class UncountedCacheEntryValue(CacheEntryValue):
    """A `CacheEntryValue` made valid where the root's ``validations`` is not counted:
    every write upstream of it walks (see the module docstring)."""

    __slots__ = ()
    counted = False


def downstream_entries(nodes):
    """Every cache entry reachable from ``nodes`` through subscriptions, each once."""
    seen = set()
    out = []
    stack = list(nodes)
    while stack:
        node = stack.pop()
        for sub in node.subscribers:
            key = id(sub)
            if key in seen:
                continue
            seen.add(key)
            if isinstance(sub, CacheEntryValue):
                out.append(sub)
            stack.append(sub)
    return out


def notify(tracker, version):
    """Mark every cache entry downstream of ``tracker`` out of date."""
    closure = tracker.closure
    if closure is None or tracker.closure_version != version:
        closure = downstream_entries([tracker])
        tracker.closure = closure
        tracker.closure_version = version
        tracker.closure_counted = all(entry.counted for entry in closure)
    for entry in closure:
        entry.valid = False


def notify_changed(tracker, root):
    """`notify` for the context tree whose root data is `root` (with ``version`` and
    ``validations``), skipping the walk when no cache entry of the tree was made valid
    since the last walk from `tracker` (every entry downstream is then still out of
    date), unless the downstream set holds an `UncountedCacheEntryValue`."""
    validations = root.validations
    if tracker.walked == validations and tracker.closure_version == root.version:
        return
    notify(tracker, root.version)
    tracker.walked = validations if tracker.closure_counted else -1


class ValueProducer:
    """An allocate/calc pair for a cache entry (Drake's ValueProducer).

    Parameters
    ----------
    allocate : callable
        ``allocate()`` returns a new Value (AbstractValue) holding the storage.
    calc : callable
        ``calc(context, value)`` updates ``value`` (the Value from ``allocate``) in place,
        through ``value.get_mutable_value()`` or ``value.set_value(...)``.
    """

    __slots__ = ("_allocate", "_calc")

    def __init__(self, allocate, calc):
        if not callable(allocate) or not callable(calc):
            raise TypeError(
                f"ValueProducer: allocate and calc must be callables, got "
                f"{type(allocate).__name__} and {type(calc).__name__}")
        self._allocate = allocate
        self._calc = calc

    def allocate(self):
        """A new Value from the allocate callback; raises RuntimeError naming the callback
        when it does not return a Value."""
        from .value import Value          # value.py does not import cache.py: no cycle
        value = self._allocate()
        if not isinstance(value, Value):
            name = getattr(self._allocate, "__qualname__", repr(self._allocate))
            got = "None" if value is None else type(value).__name__
            raise RuntimeError(
                f"ValueProducer: the allocate callback {name} must return a Value "
                f"(AbstractValue), not {got}")
        return value

    def calc(self, context, value):
        """Run the calc callback on ``value`` (a Value)."""
        self._calc(context, value)
