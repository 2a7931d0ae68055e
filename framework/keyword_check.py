"""An unknown keyword argument names the valid ones (a pydrake user's misspelling teaches).

``@lists_valid_keywords`` on a function or ``__init__`` turns Python's bare
"unexpected keyword argument" into a TypeError that names the callable, the keyword and
every keyword it accepts; valid calls pay one dictionary lookup per keyword given.
"""

import functools
import inspect

_NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def lists_valid_keywords(fn):
    """Decorate ``fn`` (a function or an ``__init__``) so that an unknown keyword raises
    ``TypeError("<name>: unknown keyword argument 'x'; valid keywords: a, b, ...")``."""
    params = inspect.signature(fn).parameters
    valid = tuple(n for n, p in params.items() if p.kind in _NAMED and n != "self")
    is_init = fn.__name__ == "__init__"

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        for key in kwargs:
            if key not in valid:
                owner = type(args[0]).__name__ if is_init and args else fn.__qualname__
                raise TypeError(
                    f"{owner}: unknown keyword argument {key!r}; valid keywords: "
                    f"{', '.join(valid)}")
        return fn(*args, **kwargs)

    return wrapper
