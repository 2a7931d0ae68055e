"""An unknown keyword argument names the valid ones (a pydrake user's misspelling teaches).

``@lists_valid_keywords`` on a function or ``__init__`` turns Python's bare
"unexpected keyword argument" into a TypeError that names the callable, the keyword,
every keyword it accepts and the closest one; valid calls pay one set test. Decorate
construction-time calls (``declare_*``, constructors, ``fix_value``), not hot paths.
"""

import difflib
import functools
import inspect

_NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def lists_valid_keywords(fn):
    """Decorate ``fn`` (a function or an ``__init__``) so that an unknown keyword raises
    ``TypeError("<name>: unknown keyword argument 'x'; valid keywords: a, b, ...")``."""
    params = inspect.signature(fn).parameters
    if any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return fn
    valid = tuple(n for n, p in params.items() if p.kind in _NAMED and n != "self")
    valid_set = frozenset(valid)
    is_init = fn.__name__ == "__init__"

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if kwargs and not valid_set.issuperset(kwargs):
            key = next(k for k in kwargs if k not in valid_set)
            owner = type(args[0]).__name__ if is_init and args else fn.__qualname__
            hint = difflib.get_close_matches(key, valid, n=1)
            raise TypeError(
                f"{owner}: unknown keyword argument {key!r}; valid keywords: "
                f"{', '.join(valid) if valid else '(none)'}"
                + (f" (did you mean {hint[0]!r}?)" if hint else ""))
        return fn(*args, **kwargs)

    return wrapper
