"""PackageMap: package names -> directories, and the resolution of model URIs.

Model files refer to other files (meshes, included models) by

- ``package://<package>/<path>`` (ROS convention) or ``model://<package>/<path>``
  (Gazebo convention; resolved the same way, as Drake does);
- ``file:///absolute/path``;
- a plain absolute path, or a path relative to the referring file's directory.

Packages are registered by name (`add`), from a ``package.xml`` manifest
(`add_package_xml`), by searching a folder tree for manifests
(`populate_from_folder`), from a ``ROS_PACKAGE_PATH``-style environment variable, or as
remote archives fetched on first use (`add_remote`, see ``remote_package``).

As Drake's, a default-constructed map knows Drake's own packages when Drake's resources
are on this machine: ``drake`` (the directory holding Drake's ``package.xml``) and
``drake_models`` (remote, fetched from the URLs Drake lists for it). Drake's resource root
is `drake_resources.drake_resource_root`. `make_empty` gives a map without them.
"""

from __future__ import annotations

import copy
import json
import os

from merganser.multibody.parsing.drake_resources import drake_resource_root
from merganser.multibody.parsing.remote_package import RemoteParams, fetch_remote_package

__all__ = ["PackageMap", "UnresolvedUriError"]

#: Files that stop ROS's package crawl in their folder (`populate_from_ros_package_path`).
_ROS_IGNORE_MARKERS = frozenset({"AMENT_IGNORE", "CATKIN_IGNORE", "COLCON_IGNORE"})


class UnresolvedUriError(RuntimeError, ValueError):
    """A URI names an unknown package or a file that does not exist."""


def _absolute_path(fn, arg, value) -> str:
    """The absolute path of path-like `value`; TypeError naming `fn` and `arg` if it is
    not a str, bytes or os.PathLike."""
    try:
        return os.path.abspath(os.fspath(value))
    except TypeError:
        raise TypeError(f"{fn}: {arg} must be a path (str or os.PathLike), got "
                        f"{type(value).__name__}") from None


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

    RemoteParams = RemoteParams

    def __init__(self, other: "PackageMap | None" = None):
        self._paths: dict[str, str] = {}
        self._remote: dict[str, RemoteParams] = {}
        if other is not None:
            if not isinstance(other, PackageMap):
                raise TypeError(f"PackageMap: other must be a PackageMap, got "
                                f"{type(other).__name__}")
            self._paths = dict(other._paths)
            self._remote = {k: copy.copy(v) for k, v in other._remote.items()}
            return
        root = drake_resource_root()
        if root is None:
            return
        self._paths["drake"] = os.path.join(root, "drake")
        manifest = os.path.join(root, "drake", "multibody", "parsing", "drake_models.json")
        try:
            with open(manifest, encoding="utf-8") as f:
                data = json.load(f)
            self.add_remote("drake_models", RemoteParams(
                urls=list(data["urls"]), sha256=data["sha256"],
                strip_prefix=data.get("strip_prefix")))
        except (OSError, ValueError, KeyError, TypeError):
            pass                                # a Drake without drake_models: just drake

    @classmethod
    def make_empty(cls) -> "PackageMap":
        """A map with no packages, not even Drake's (pydrake's ``PackageMap.MakeEmpty``)."""
        pm = cls.__new__(cls)
        pm._paths, pm._remote = {}, {}
        return pm

    def __copy__(self) -> "PackageMap":
        return PackageMap(self)

    def __deepcopy__(self, memo) -> "PackageMap":
        return PackageMap(self)

    def add_map(self, other_map: "PackageMap") -> None:
        """Add every package of `other_map` (ValueError for a name registered here with
        another directory, as `add`)."""
        if not isinstance(other_map, PackageMap):
            raise TypeError(f"PackageMap.add_map: other_map must be a PackageMap, got "
                            f"{type(other_map).__name__}")
        for name, params in other_map._remote.items():
            self.add_remote(name, params)
        for name, path in other_map._paths.items():
            self.add(name, path)

    def add_remote(self, package_name: str, params: RemoteParams) -> None:
        """Register `package_name` as a remote archive, fetched by the first `get_path`
        (see ``remote_package``).

        Raises
        ------
        ValueError
            For invalid params, or a name already registered (locally, or remotely with
            other params).
        """
        where = f"PackageMap.add_remote({package_name!r})"
        if not isinstance(package_name, str) or not package_name or "/" in package_name:
            raise ValueError(f"PackageMap.add_remote: package_name must be a non-empty name "
                             f"without '/', got {package_name!r}")
        if not isinstance(params, RemoteParams):
            raise TypeError(f"{where}: params must be a PackageMap.RemoteParams, got "
                            f"{type(params).__name__}")
        params.validate(where)
        if package_name in self._paths or self._remote.get(package_name, params) != params:
            raise ValueError(f"{where}: the package is already registered; remove it first")
        self._remote[package_name] = copy.copy(params)

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
        path = _absolute_path("PackageMap.add", "package_path", package_path)
        if not os.path.isdir(path):
            raise ValueError(f"PackageMap.add: package {package_name!r}: the directory "
                             f"{path!r} does not exist")
        existing = self._paths.get(package_name)
        if package_name in self._remote:
            raise ValueError(f"PackageMap.add: package {package_name!r} is already registered "
                             f"as a remote package; cannot register it again as {path!r}")
        if existing is not None and existing != path:
            raise ValueError(f"PackageMap.add: package {package_name!r} is already registered "
                             f"as {existing!r}; cannot register it again as {path!r}")
        self._paths[package_name] = path

    def add_package_xml(self, filename) -> str:
        """Register the package described by the manifest `filename` (a package.xml) as
        the manifest's directory; return the package name."""
        path = _absolute_path("PackageMap.add_package_xml", "filename", filename)
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
        root = _absolute_path("PackageMap.populate_from_folder", "path", path)
        if not os.path.isdir(root):
            raise ValueError(f"PackageMap.populate_from_folder: {root!r} is not a directory")
        return self._crawl(root, ros=False)

    def _crawl(self, root, ros):
        """Register the packages under `root`; with `ros`, ROS's crawl rules: no descent
        into a package found or into a folder holding an AMENT_IGNORE, CATKIN_IGNORE or
        COLCON_IGNORE marker."""
        added = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            if ros and _ROS_IGNORE_MARKERS.intersection(filenames):
                dirnames[:] = []
                continue
            if "package.xml" in filenames:
                if ros:
                    dirnames[:] = []
                manifest = os.path.join(dirpath, "package.xml")
                try:
                    name = _package_name_from_manifest(manifest)
                except ValueError:
                    continue
                if name not in self._paths and name not in self._remote:
                    self._paths[name] = dirpath
                    added.append(name)
        return added

    def populate_from_ros_package_path(self):
        """Search the folders of ROS_PACKAGE_PATH with ROS's crawl rules (Drake's
        PopulateFromRosPackagePath): subfolders of a package found are not searched, nor
        folders holding an AMENT_IGNORE, CATKIN_IGNORE or COLCON_IGNORE file. Returns the
        names added."""
        added = []
        for folder in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep):
            if folder and os.path.isdir(folder):
                added += self._crawl(os.path.abspath(folder), ros=True)
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
        if package_name not in self:
            raise ValueError(f"PackageMap.remove: unknown package {package_name!r}; known "
                             f"packages: {self.get_package_names()}")
        self._paths.pop(package_name, None)
        self._remote.pop(package_name, None)

    # ------------------------------------------------------------------ queries
    def contains(self, package_name: str) -> bool:
        """True if `package_name` is registered (locally or remotely)."""
        return package_name in self._paths or package_name in self._remote

    __contains__ = contains

    def size(self) -> int:
        """Number of registered packages."""
        return len(self._paths) + len(self._remote)

    def get_package_names(self) -> list[str]:
        """Registered package names, sorted."""
        return sorted([*self._paths, *self._remote])

    def get_path(self, package_name: str) -> str:
        """Directory of `package_name`; a remote package is fetched first (RuntimeError if
        that fails). UnresolvedUriError if the name is unknown."""
        path = self._paths.get(package_name)
        if path is not None:
            return path
        if package_name in self._remote:
            try:
                return fetch_remote_package(package_name, self._remote[package_name])
            except RuntimeError as err:
                raise UnresolvedUriError(str(err)) from None
        raise UnresolvedUriError(
            f"unknown package {package_name!r}; known packages: "
            f"{self.get_package_names() or '(none)'}; register it with "
            f"parser.package_map().add(name, path)")

    def resolve_url(self, url: str) -> str:
        """The file `url` names (pydrake's ``ResolveUrl``): `resolve` with the current
        directory for relative paths."""
        return self.resolve(url)

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
            base = (_absolute_path("PackageMap.resolve", "relative_to", relative_to) if relative_to
                    else os.getcwd())
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
        remote = {k: "remote" for k in self._remote}
        return f"PackageMap({ {**self._paths, **remote}!r})"
