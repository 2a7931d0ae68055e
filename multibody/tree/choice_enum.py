"""ChoiceEnum: Drake's enumerations (``ContactModel.kPoint``) whose members are also the
strings of merganser's configuration files (``"point"``).

A member compares and hashes equal to its string, so code and configs written with the
strings keep working; setters accept either spelling through `ChoiceEnum.coerce`, and
getters return the member, as pydrake does. ``str(member)`` is Drake's
``"ContactModel.kPoint"``; an f-string gives the configuration string.
"""

import enum

__all__ = ["ChoiceEnum"]


class ChoiceEnum(str, enum.Enum):
    """Base class: a member's value is its configuration string."""

    __hash__ = str.__hash__

    def __repr__(self):
        return f"<{type(self).__name__}.{self.name}: {self.value!r}>"

    #: ``str(member)`` is Drake's ``"ContactModel.kPoint"``; formatting (f-strings, as in
    #: error messages) gives the configuration string ``"point"``.
    __str__ = enum.Enum.__str__

    def __format__(self, format_spec):
        return format(self.value, format_spec)

    @classmethod
    def names(cls):
        """The configuration strings, in declaration order (tuple of str)."""
        return tuple(member.value for member in cls)

    @classmethod
    def coerce(cls, fn, arg, value):
        """The member `value` denotes: a member, its string (``"sap"``) or its name
        (``"kSap"``).

        Raises
        ------
        ValueError
            Naming `fn`, `arg`, the valid choices and what was given.
        """
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            if value in cls._value2member_map_:
                return cls._value2member_map_[value]
            if value in cls.__members__:
                return cls.__members__[value]
        choices = ", ".join(repr(c) for c in cls.names())
        members = ", ".join(f"{cls.__name__}.{m}" for m in cls.__members__)
        raise ValueError(f"{fn}: {arg} must be one of {choices} (or {members}), got {value!r}")
