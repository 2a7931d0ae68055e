"""Remote packages of a PackageMap: an archive fetched on first use (Drake's AddRemote).

A remote package is described by `RemoteParams` (the archive's URLs, its sha256, the
archive type and a directory prefix to strip). The first `PackageMap.get_path` of the
package fetches the archive from the first URL that works, checks its sha256, unpacks it
into a per-user cache and returns the unpacked directory; later calls (in this or another
process) find it in the cache. The cache directory is
``$XDG_CACHE_HOME/merganser/package_map/<sha256>`` (``~/.cache`` when the variable is
unset).

``file://`` URLs are always allowed. ``http://`` and ``https://`` URLs are skipped when the
environment variable ``DRAKE_ALLOW_NETWORK`` is set and does not list ``package_map``
(Drake's switch: a colon-separated list of the components allowed to use the network;
``none`` forbids all).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import tempfile
import urllib.request

__all__ = ["RemoteParams", "fetch_remote_package"]

_ARCHIVE_TYPES = ("zip", "tar", "gztar", "bztar", "xztar")
_EXTENSIONS = ((".zip", "zip"), (".tar.gz", "gztar"), (".tgz", "gztar"),
               (".tar.bz2", "bztar"), (".tar.xz", "xztar"), (".tar", "tar"))


@dataclasses.dataclass
class RemoteParams:
    """Where to fetch a remote package from (pydrake's ``PackageMap.RemoteParams``).

    Attributes
    ----------
    urls : list of str
        ``http://``, ``https://`` or ``file://`` URLs of the archive, tried in order.
    sha256 : str
        The archive's checksum, 64 hexadecimal digits.
    archive_type : str or None
        ``"zip"``, ``"tar"``, ``"gztar"``, ``"bztar"`` or ``"xztar"``; None: from the
        URL's extension.
    strip_prefix : str or None
        A directory of the archive that becomes the package's root.
    """

    urls: list = dataclasses.field(default_factory=list)
    sha256: str = ""
    archive_type: str | None = None
    strip_prefix: str | None = None

    def to_json(self) -> str:
        """The JSON serialization of these params (as Drake's ``ToJson``)."""
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    def validate(self, where: str) -> None:
        """Raise ValueError, naming `where`, for params that cannot describe an archive."""
        if not self.urls or not all(isinstance(u, str) for u in self.urls):
            raise ValueError(f"{where}: params.urls must be a non-empty list of URLs, got "
                             f"{self.urls!r}")
        for url in self.urls:
            if not url.startswith(("http://", "https://", "file://")):
                raise ValueError(f"{where}: params.urls entry {url!r} must start with "
                                 f"http://, https:// or file://")
        sha = self.sha256
        if not (isinstance(sha, str) and len(sha) == 64
                and all(c in "0123456789abcdefABCDEF" for c in sha)):
            raise ValueError(f"{where}: params.sha256 must be 64 hexadecimal digits, got "
                             f"{sha!r}")
        if self.archive_type is not None and self.archive_type not in _ARCHIVE_TYPES:
            raise ValueError(f"{where}: params.archive_type must be one of {_ARCHIVE_TYPES} "
                             f"or None, got {self.archive_type!r}")


def _cache_root() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "merganser", "package_map")


def _network_allowed() -> bool:
    value = os.environ.get("DRAKE_ALLOW_NETWORK")
    if value is None or value == "":
        return True
    allowed = value.split(":")
    return "package_map" in allowed and "none" not in allowed


def _archive_type(params: RemoteParams, url: str) -> str:
    if params.archive_type is not None:
        return params.archive_type
    for ext, kind in _EXTENSIONS:
        if url.lower().endswith(ext):
            return kind
    raise ValueError(f"cannot tell the archive type of {url!r} from its extension; set "
                     f"params.archive_type to one of {_ARCHIVE_TYPES}")


def _download(url: str, target: str) -> None:
    if url.startswith("file://"):
        shutil.copyfile(url[len("file://"):], target)
        return
    with urllib.request.urlopen(url, timeout=30) as response, open(target, "wb") as out:
        shutil.copyfileobj(response, out)


def _sha256_of(path: str) -> str:
    hasher = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def fetch_remote_package(package_name: str, params: RemoteParams) -> str:
    """The local directory of the remote package `package_name`, fetched if needed.

    Raises
    ------
    RuntimeError
        Naming the package and every URL tried with the reason it failed (unreachable,
        network forbidden, checksum mismatch, missing ``strip_prefix``).
    """
    sha = params.sha256.lower()
    package_dir = os.path.join(_cache_root(), sha)
    if os.path.isdir(package_dir):
        return package_dir
    failures = []
    os.makedirs(_cache_root(), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=_cache_root()) as scratch:
        for url in params.urls:
            if not url.startswith("file://") and not _network_allowed():
                failures.append(f"{url}: skipped, DRAKE_ALLOW_NETWORK does not list "
                                f"'package_map'")
                continue
            archive = os.path.join(scratch, "archive")
            try:
                kind = _archive_type(params, url)
                _download(url, archive)
            except (OSError, ValueError) as err:
                failures.append(f"{url}: {err}")
                continue
            got = _sha256_of(archive)
            if got != sha:
                failures.append(f"{url}: checksum mismatch; got {got}, wanted {sha}")
                continue
            unpacked = os.path.join(scratch, "unpacked")
            try:
                shutil.unpack_archive(archive, unpacked, format=kind)
            except (OSError, ValueError, shutil.ReadError) as err:
                failures.append(f"{url}: cannot unpack as {kind}: {err}")
                continue
            root = os.path.join(unpacked, params.strip_prefix or "")
            if not os.path.isdir(root):
                failures.append(f"{url}: the archive has no directory "
                                f"strip_prefix={params.strip_prefix!r}")
                continue
            try:
                os.replace(root, package_dir)
            except OSError:
                if not os.path.isdir(package_dir):     # not a concurrent fetch: a failure
                    raise
            return package_dir
    raise RuntimeError(f"PackageMap.get_path: cannot fetch the remote package "
                       f"{package_name!r}: " + "; ".join(failures))
