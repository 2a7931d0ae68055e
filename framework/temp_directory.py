"""temp_directory: a fresh directory for a program's temporary files (pydrake's
``pydrake.common.temp_directory``)."""

from __future__ import annotations

import os
import tempfile

__all__ = ["temp_directory"]


def temp_directory():
    """A new, empty directory for temporary files, as Drake's: under ``TEST_TMPDIR`` when
    that environment variable names a directory (test runners set it), else under the
    system's temporary directory (``TMPDIR``, ``/tmp``). The caller removes it.

    Returns
    -------
    str
        Its absolute path.
    """
    base = os.environ.get("TEST_TMPDIR")
    if base and not os.path.isdir(base):
        raise RuntimeError(f"temp_directory: TEST_TMPDIR={base!r} is not a directory")
    return tempfile.mkdtemp(prefix="merganser_", dir=base or None)
