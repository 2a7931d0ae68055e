"""PackageMap: package names -> directories, and the resolution of model URIs.

Model files refer to other files (meshes, included models) by

- ``package://<package>/<path>`` (ROS convention) or ``model://<package>/<path>``
  (Gazebo convention; resolved the same way, as Drake does);
- ``file:///absolute/path``;
- a plain absolute path, or a path relative to the referring file's directory.

Packages are registered by name (`add`), from a ``package.xml`` manifest
(`add_package_xml`), by searching a folder tree for manifests
(`populate_from_folder`), or from a ``ROS_PACKAGE_PATH``-style environment variable.
"""

from __future__ import annotations

import os


__all__ = ["PackageMap", "UnresolvedUriError"]


class UnresolvedUriError(ValueError):
    """A URI names an unknown package or a file that does not exist."""


def _package_name_from_manifest(path: str) -> str:
    """The ``<name>`` of a ``package.xml`` file (ValueError if absent or unreadable)."""
    from lxml import etree

    try:
        root = etree.parse(path, etree.XMLParser(resolve_entities=False,
                                                 no_network=True)).getroot()
    except (OSError, etree.XMLSyntaxError) as err:
        raise ValueError(f"cannot read package manifest {path!r}: {err}") from None
    name = root.find("name")
    if root.tag != "package" or name is None or not (name.text or "").strip():
        raise ValueError(f"package manifest {path!r} has no <package><name> element")
    return name.text.strip()


class PackageMap:
    """A mapping from package names to directories (Drake's PackageMap).

    Examples
    --------
    >>> pm = PackageMap()
    >>> pm.add("example-robot-data", "tests/data/models/example-robot-data")
    >>> pm.resolve("package://example-robot-data/robots/panda.urdf")  # doctest: +SKIP
    '/abs/tests/data/models/example-robot-data/robots/panda.urdf'
    """

    def __init__(self):
        self._paths: dict[str, str] = {}

    @classmethod
    def make_empty(cls) -> "PackageMap":
        """A map with no packages (pydrake's ``PackageMap.MakeEmpty``; merganser ships
        no built-in packages, so this equals ``PackageMap()``)."""
        return cls()

    def add_map(self, other_map: "PackageMap") -> None:
        """Add every package of `other_map` (ValueError for a name registered here with
        another directory, as `add`)."""
        if not isinstance(other_map, PackageMap):
            raise TypeError(f"PackageMap.add_map: other_map must be a PackageMap, got "
                            f"{type(other_map).__name__}")
        for name in other_map.get_package_names():
            self.add(name, other_map.get_path(name))

    # ------------------------------------------------------------------ registration
    def add(self, package_name: str, package_path) -> None:
        """Register `package_name` as the directory `package_path`.

        Raises
        ------
        ValueError
            If the name is empty, the directory does not exist, or the name is already
            registered with a different directory.
        """
        if not isinstance(package_name, str) or not package_name or "/" in package_name:
            raise ValueError(f"PackageMap.add: package_name must be a non-empty name without "
                             f"'/', got {package_name!r}")
        path = os.path.abspath(os.fspath(package_path))
        if not os.path.isdir(path):
            raise ValueError(f"PackageMap.add: package {package_name!r}: the directory "
                             f"{path!r} does not exist")
        existing = self._paths.get(package_name)
        if existing is not None and existing != path:
            raise ValueError(f"PackageMap.add: package {package_name!r} is already registered "
                             f"as {existing!r}; cannot register it again as {path!r}")
        self._paths[package_name] = path

    def add_package_xml(self, filename) -> str:
        """Register the package described by the manifest `filename` (a package.xml) as
        the manifest's directory; return the package name."""
        path = os.path.abspath(os.fspath(filename))
        try:
            name = _package_name_from_manifest(path)
        except ValueError as err:
            raise ValueError(f"PackageMap.add_package_xml: {err}") from None
        self.add(name, os.path.dirname(path))
        return name

    def populate_from_folder(self, path) -> list[str]:
        """Register every package whose package.xml lies under `path` (recursively).

        A package found twice keeps its first (shallowest, then alphabetical)
        directory. Returns the names that were added.
        """
        root = os.path.abspath(os.fspath(path))
        if not os.path.isdir(root):
            raise ValueError(f"PackageMap.populate_from_folder: {root!r} is not a directory")
        added = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            if "package.xml" in filenames:
                manifest = os.path.join(dirpath, "package.xml")
                try:
                    name = _package_name_from_manifest(manifest)
                except ValueError:
                    continue
                if name not in self._paths:
                    self._paths[name] = dirpath
                    added.append(name)
        return added

    def populate_from_environment(self, environment_variable: str = "ROS_PACKAGE_PATH"):
        """Search every folder of the ``os.pathsep``-separated variable (if set)."""
        added = []
        for folder in os.environ.get(environment_variable, "").split(os.pathsep):
            if folder and os.path.isdir(folder):
                added += self.populate_from_folder(folder)
        return added

    def remove(self, package_name: str) -> None:
        """Forget `package_name` (ValueError if unknown)."""
        if package_name not in self._paths:
            raise ValueError(f"PackageMap.remove: unknown package {package_name!r}; known "
                             f"packages: {sorted(self._paths)}")
        del self._paths[package_name]

    # ------------------------------------------------------------------ queries
    def contains(self, package_name: str) -> bool:
        """True if `package_name` is registered."""
        return package_name in self._paths

    __contains__ = contains

    def size(self) -> int:
        """Number of registered packages."""
        return len(self._paths)

    def get_package_names(self) -> list[str]:
        """Registered package names, sorted."""
        return sorted(self._paths)

    def get_path(self, package_name: str) -> str:
        """Directory of `package_name` (UnresolvedUriError if unknown)."""
        try:
            return self._paths[package_name]
        except KeyError:
            raise UnresolvedUriError(
                f"unknown package {package_name!r}; known packages: "
                f"{sorted(self._paths) or '(none)'}; register it with "
                f"parser.package_map().add(name, path)") from None

    # ------------------------------------------------------------------ resolution
    def resolve(self, uri: str, relative_to=None, must_exist: bool = True) -> str:
        """Absolute path of `uri`.

        Parameters
        ----------
        uri : str
            ``package://``, ``model://`` or ``file://`` URI, or a file path.
        relative_to : str, optional
            Directory that relative paths are resolved against (the referring file's
            directory); the current directory when omitted.
        must_exist : bool
            Require the resolved file to exist.

        Raises
        ------
        UnresolvedUriError
            For an unknown package, an unsupported scheme, a ``package://`` URI whose
            ``..`` leave the package's folder, or (with `must_exist`) a missing file.
        """
        if not isinstance(uri, str) or not uri.strip():
            raise UnresolvedUriError(f"expected a file name or URI, got {uri!r}")
        uri = uri.strip()
        scheme, sep, rest = uri.partition("://")
        if not sep:
            base = os.path.abspath(os.fspath(relative_to)) if relative_to else os.getcwd()
            path = os.path.normpath(os.path.join(base, uri))
        elif scheme in ("package", "model"):
            package, _, inner = rest.partition("/")
            if not package:
                raise UnresolvedUriError(f"URI {uri!r} names no package")
            root = os.path.normpath(os.path.abspath(self.get_path(package)))
            path = os.path.normpath(os.path.join(root, inner))
            if os.path.commonpath([root, path]) != root:
                raise UnresolvedUriError(
                    f"URI {uri!r} leaves the folder of package {package!r} ({root!r}); a "
                    f"package URI must name a file inside its package")
        elif scheme == "file":
            if not rest.startswith("/"):
                raise UnresolvedUriError(f"file URI {uri!r} must be absolute (file:///...)")
            path = os.path.normpath(rest)
        else:
            raise UnresolvedUriError(
                f"URI {uri!r} has the unsupported scheme {scheme!r}; expected package://, "
                f"model://, file:// or a file path")
        if must_exist and not os.path.exists(path):
            raise UnresolvedUriError(f"{uri!r} resolves to {path!r}, which does not exist")
        return path

    def __repr__(self) -> str:
        return f"PackageMap({self._paths!r})"
