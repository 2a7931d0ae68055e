"""DrakeIntEnum: an IntEnum that prints as pydrake's enums do.

pydrake's enumerations print as ``ReturnReason.kReachedBoundaryTime`` (``str``, ``format``)
and ``<ReturnReason.kReachedBoundaryTime: 0>`` (``repr``); Python 3.11's IntEnum prints
the bare integer. A member with several names prints under its pydrake one (``kName``).
Members stay ints (comparisons, indexing and arithmetic as before).
"""

import enum

__all__ = ["DrakeIntEnum"]


class DrakeIntEnum(enum.IntEnum):
    """Base of the framework's and geometry's Drake-named integer enumerations."""

    def __str__(self):
        # pydrake's kCamelCase name when the member has one among its aliases
        name = next((key for key, member in type(self).__members__.items()
                     if member is self and key[:1] == "k" and key[1:2].isupper()), self.name)
        return f"{type(self).__name__}.{name}"

    def __format__(self, format_spec):
        return format(str(self), format_spec)
