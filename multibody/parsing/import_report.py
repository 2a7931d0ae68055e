"""ImportReport: what a parse did with every element of the files it read.

Each element of each file read appears at least once, with one of four statuses:

============  ========================================================================
implemented   used to build the model (a link, a joint, a limit, a geometry, ...)
defaulted     absent or partial, so a documented default was used (e.g. a link
              without ``<inertial>`` is massless)
warned        used, but with a warning (e.g. a non-physical inertia replaced by
              Drake's substitute, a transmission skipped for a zero effort limit)
ignored       not used (unsupported or irrelevant to dynamics), always with a warning
============  ========================================================================
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from merganser.multibody.parsing.diagnostics import format_location

__all__ = ["STATUSES", "ImportReport", "ReportEntry"]

STATUSES = ("implemented", "defaulted", "warned", "ignored")


@dataclass(frozen=True)
class ReportEntry:
    """One line of an `ImportReport`.

    Attributes
    ----------
    status : str
        One of `STATUSES`.
    element : str
        Path of the element in its document, e.g. ``"robot/link[arm]/inertial"``.
    file : str
        File (or string label) the element comes from.
    line : int or None
        Line of the element.
    message : str
        What was done (for warnings, the warning text).
    """

    status: str
    element: str
    file: str
    line: int | None
    message: str = ""

    def __str__(self) -> str:
        text = f"{format_location(self.file, self.line)}: [{self.status}] {self.element}"
        return f"{text}: {self.message}" if self.message else text


@dataclass
class ImportReport:
    """Everything one ``add_models`` / ``add_models_from_string`` call did.

    Attributes
    ----------
    source : str
        The file name (or string label) that was parsed.
    file_type : str
        ``"urdf"``, ``"sdf"`` or ``"xml"`` (MJCF).
    entries : list of ReportEntry
        In the order they were recorded.
    model_instances : list of int
        Model instances created.
    geometries : list of GeometryRecord
        Visual and collision geometry parsed (to be registered with a SceneGraph).
    collision_filter_groups : list of dict
        ``drake:collision_filter_group`` declarations (name, model_instance, members,
        ignored_groups).
    joint_effort_limits : dict
        ``(model_instance, joint_name) -> effort limit`` for every actuatable joint
        (URDF ``<limit effort>``, SDFormat ``<effort>``; inf when not given).
    """

    source: str = ""
    file_type: str = ""
    entries: list = field(default_factory=list)
    model_instances: list = field(default_factory=list)
    geometries: list = field(default_factory=list)
    collision_filter_groups: list = field(default_factory=list)
    joint_effort_limits: dict = field(default_factory=dict)

    def add(self, status: str, element: str, file, line, message: str = "") -> ReportEntry:
        """Append an entry and return it."""
        if status not in STATUSES:
            raise ValueError(f"ImportReport.add: status must be one of {STATUSES}, got {status!r}")
        entry = ReportEntry(status, element, str(file), line, message)
        self.entries.append(entry)
        return entry

    def by_status(self, status: str) -> list:
        """Entries with `status`."""
        if status not in STATUSES:
            raise ValueError(
                f"ImportReport.by_status: status must be one of {STATUSES}, got {status!r}")
        return [e for e in self.entries if e.status == status]

    def warnings(self) -> list:
        """Entries that came with a warning (``warned`` and ``ignored``)."""
        return [e for e in self.entries if e.status in ("warned", "ignored")]

    def find(self, element_substring: str) -> list:
        """Entries whose element path contains `element_substring`."""
        return [e for e in self.entries if element_substring in e.element]

    def counts(self) -> dict:
        """Number of entries per status (every status present, possibly 0)."""
        c = Counter(e.status for e in self.entries)
        return {s: c.get(s, 0) for s in STATUSES}

    def to_text(self) -> str:
        """One line per entry, preceded by a summary line."""
        counts = ", ".join(f"{n} {s}" for s, n in self.counts().items())
        lines = [f"import report for {self.source} ({self.file_type}): {counts}"]
        lines += [str(e) for e in self.entries]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()
