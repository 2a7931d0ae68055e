"""A process-wide count of changes to systems that compiled forms read as constants.

A compiled diagram reads some values from its systems once (e.g. a TrajectorySource's
polynomial coefficients). What changes such a value without a context (replacing a
TrajectorySource's trajectory, changing a PiecewisePolynomial's segments) calls
`note_compiled_form_change`; a compiled diagram whose `compiled_form_generation` is
older rebuilds its layout before its next evaluation. Imports nothing, so that any
module may call it.
"""

_generation = [0]


def note_compiled_form_change():
    """Tell every compiled diagram to re-read its systems' constants."""
    _generation[0] += 1


def compiled_form_generation():
    """The number of `note_compiled_form_change` calls so far (int)."""
    return _generation[0]
