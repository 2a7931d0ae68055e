"""DrakeIntEnum: an IntEnum that prints as pydrake's enums do.

pydrake's enumerations print as ``ReturnReason.kReachedBoundaryTime`` (``str``, ``format``)
and ``<ReturnReason.kReachedBoundaryTime: 0>`` (``repr``); Python 3.11's IntEnum prints
the bare integer. Members stay ints (comparisons, indexing and arithmetic as before).
"""

import enum

__all__ = ["DrakeIntEnum"]


class DrakeIntEnum(enum.IntEnum):
    """Base of the framework's and geometry's Drake-named integer enumerations."""

    def __str__(self):
        return f"{type(self).__name__}.{self.name}"

    def __format__(self, format_spec):
        return format(str(self), format_spec)
