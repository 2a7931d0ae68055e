"""Pure numerical utilities (Drake's drake::math functions that need no geometry).

The public names are re-exported by ``merganser.framework``.
"""
