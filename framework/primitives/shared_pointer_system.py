"""SharedPointerSystem: a portless system that keeps an object alive with a diagram
(Drake's SharedPointerSystem)."""

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem


class SharedPointerSystem(LeafSystem):
    """Holds ``value_to_hold`` for as long as the system (or the diagram owning it) lives.

    ::

        ┌─────────────────────┐
        │ SharedPointerSystem │      (no ports)
        └─────────────────────┘

    Parameters
    ----------
    value_to_hold : object
        Any object, None included; ``get()`` returns it.
    """

    @lists_valid_keywords
    def __init__(self, value_to_hold):
        super().__init__()
        self._held = value_to_hold

    def get(self):
        """The held object."""
        return self._held

    @staticmethod
    def add_to_builder(builder, value_to_hold):
        """Add a SharedPointerSystem holding ``value_to_hold`` to ``builder``; returns the
        object."""
        builder.add_system(SharedPointerSystem(value_to_hold))
        return value_to_hold
