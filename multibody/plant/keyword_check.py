"""check_keywords: an unknown keyword argument names the valid ones (and, for a name a
Drake user is likely to try, the one that holds that setting)."""

import difflib

__all__ = ["check_keywords"]


def check_keywords(fn, given, valid, renamed=None):
    """Raise if a key of `given` is not in `valid`.

    Parameters
    ----------
    fn : str
        The constructor or function, named first in the message.
    given : iterable of str
        The keywords passed.
    valid : iterable of str
        The accepted keywords.
    renamed : dict, optional
        ``{wrong_name: (right_name, explanation)}`` for names users are known to try.

    Raises
    ------
    TypeError
        For an unknown keyword, listing the valid ones (and the closest match), as
        Python does for a function call; also a ValueError so that validation code
        (pydantic) reports it.
    """
    valid = list(valid)
    renamed = renamed or {}
    for key in given:
        if key in valid:
            continue
        if key in renamed:
            right, why = renamed[key]
            raise UnknownKeywordError(f"{fn}: unknown keyword {key!r}; use {right!r} ({why})")
        close = difflib.get_close_matches(str(key), valid, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UnknownKeywordError(
            f"{fn}: unknown keyword {key!r}{hint} (valid keywords: {', '.join(valid)})")


class UnknownKeywordError(TypeError, ValueError):
    """An unknown keyword argument (a TypeError, as Python raises, and a ValueError)."""
