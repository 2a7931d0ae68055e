"""Unknown keyword arguments that teach: the error lists the valid keywords.

Decorate construction-time methods (``declare_*``, ``fix_value``, ...) with
``lists_valid_keywords``; hot paths stay undecorated (the check costs a wrapper call).
"""

import difflib
import functools
import inspect


def lists_valid_keywords(fn):
    """Make an unknown keyword raise TypeError naming the function, the keyword, the
    closest valid keyword and every valid one."""
    params = inspect.signature(fn).parameters
    if any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return fn
    valid = [name for name, p in params.items()
             if name != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    valid_set = frozenset(valid)
    name = fn.__qualname__.removesuffix(".__init__")

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        if kwargs and not valid_set.issuperset(kwargs):
            unknown = [k for k in kwargs if k not in valid_set]
            hint = difflib.get_close_matches(unknown[0], valid, n=1)
            raise TypeError(
                f"{name}: unknown keyword argument {unknown[0]!r}"
                + (f" (did you mean {hint[0]!r}?)" if hint else "")
                + f"; valid keywords: {', '.join(valid) if valid else '(none)'}")
        return fn(*args, **kwargs)

    return checked
