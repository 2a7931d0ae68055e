"""CacheEntry: a LeafSystem's declared cached computation (Drake's CacheEntry).

The declaration lives in the system; each context holds its value object (a
CacheEntryValue from cache.py) with the storage and the up-to-date flag.
"""

from .cache import Tickets, frozen_cache_error
from .indices import CacheIndex
from .value import Value


def none():
    """The allocator of an entry whose producer returns its value: nothing to allocate."""
    return None


class CacheEntry:
    """A declared cache entry of a LeafSystem (Drake's CacheEntry).

    ``eval(context)`` gives the value, recomputed only when a prerequisite changed;
    the per-context value object (a CacheEntryValue, ``get_cache_entry_value(context)``)
    holds the storage and the up-to-date flag. Caching can be switched off for one
    context (``disable_caching(context)``) or for every new context
    (``disable_caching_by_default()``): each evaluation then recomputes.
    """

    _slot = "cache_entries"

    def __init__(self, system, index, description, alloc, calc, prerequisites):
        self._system = system
        self._index = index
        self._description = description
        self._alloc = alloc if calc is not None else none
        self._calc = calc if calc is not None else alloc
        self._producer_returns = calc is None
        self._prerequisites = prerequisites
        self._default_prereqs = False
        self._disabled_by_default = False

    def ticket(self):
        return Tickets.cache_entry(self._index)

    def cache_index(self):
        return CacheIndex(self._index)

    def description(self):
        return self._description

    def prerequisites(self):
        """The DependencyTickets this entry depends on, a set."""
        return set(self._prerequisites)

    def has_default_prerequisites(self):
        """True when declared without ``prerequisites_of_calc`` (then: all sources)."""
        return self._default_prereqs

    def is_disabled_by_default(self):
        return self._disabled_by_default

    def disable_caching_by_default(self):
        """Contexts created from now on recompute this entry on every evaluation."""
        self._disabled_by_default = True

    def _value_in(self, context, fn):
        ctx = context if context._system is self._system else self._system._context_from(
            context, fn)
        return getattr(ctx, self._slot)[self._index]

    def get_cache_entry_value(self, context):
        """This entry's CacheEntryValue in ``context`` (storage and up-to-date flag)."""
        return self._value_in(context, "CacheEntry.get_cache_entry_value")

    def get_mutable_cache_entry_value(self, context):
        return self._value_in(context, "CacheEntry.get_mutable_cache_entry_value")

    def is_cache_entry_disabled(self, context):
        return not self._value_in(context, "CacheEntry.is_cache_entry_disabled").enabled

    def disable_caching(self, context):
        """Recompute this entry on every evaluation in ``context``."""
        self._value_in(context, "CacheEntry.disable_caching").disable_caching()

    def enable_caching(self, context):
        self._value_in(context, "CacheEntry.enable_caching").enable_caching()

    def eval_abstract(self, context):
        """The value wrapped in a Value (holding the very object ``eval`` returns)."""
        value = self.eval(context)
        return value if isinstance(value, Value) else Value(value)

    def eval(self, context):
        """The cached value, recomputed when a prerequisite changed."""
        ctx = context if context._system is self._system else self._system._context_from(
            context, "CacheEntry.eval")
        entry = ctx.cache_entries[self._index]
        if entry.valid:
            return entry.ro
        if ctx._root.cache_frozen:
            raise frozen_cache_error(entry)
        if self._producer_returns:
            entry.store(self._calc(ctx))
        else:
            result = self._calc(ctx, entry.value)
            if result is not None:
                entry.value = entry.ro = result
        entry.valid = entry.enabled
        ctx._root.validations += 1
        return entry.ro

    def is_out_of_date(self, context):
        return not self._value_in(context, "CacheEntry.is_out_of_date").valid


class OutputPortCacheEntry(CacheEntry):
    """The cache entry behind a LeafSystem output port (``port.cache_entry()``)."""

    _slot = "out_entries"

    def __init__(self, port):
        super().__init__(port.get_system(), port.get_index(),
                         f"output port '{port.get_name()}'", None, none, port._prerequisites)
        self._port = port

    def ticket(self):
        return self._port.ticket()

    def eval(self, context):
        return self._port.eval(context)
