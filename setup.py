"""Packaging glue: the folders framework/, geometry/, multibody/ and controllers/ at the
top of the repository install as merganser.framework, merganser.geometry, ... (pyproject
holds everything else). Subpackages are found here so that a new folder needs no edit.

``build_ext`` builds the ahead-of-time kernels (``merganser/aot_build.py``) for this
machine: two optional extension modules, not built from C sources but by running the
build module in a child process. It never fails the install: without a C compiler (or
with ``MERGANSER_AOT=0``) the extension is left out and the kernels compile at first
use, as before.
"""

import os
import pathlib
import subprocess
import sys

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

LAYERS = ("framework", "geometry", "multibody", "controllers")
ROOT = pathlib.Path(__file__).resolve().parent
#: The modules `merganser.framework.compilation.AOT_MODULES` loads.
AOT_MODULES = ("merganser.framework._aot_kernels", "merganser.framework._aot_kernels_plain")

packages = find_packages(include=["merganser", "merganser.*"])
package_dir = {"merganser": "merganser"}
for layer in LAYERS:
    for sub in find_packages(include=[layer, f"{layer}.*"]):
        packages.append(f"merganser.{sub}")
    package_dir[f"merganser.{layer}"] = layer

# The child imports merganser from this source tree: the layers' folders sit beside
# merganser/, so they are added to the package's path.
_BUILD_CHILD = """
import sys
sys.path.insert(0, {root!r})
import merganser
merganser.__path__.append({root!r})
from merganser.aot_build import main
main(["--output", {output!r}])
"""


class BuildAheadOfTime(build_ext):
    """``build_ext`` writing the ahead-of-time kernels, or nothing when it cannot."""

    def build_extension(self, ext):
        if ext.name not in AOT_MODULES:
            return super().build_extension(ext)
        output = pathlib.Path(self.get_ext_fullpath(ext.name))
        if ext.name != AOT_MODULES[0]:      # the first one's build writes both
            return None
        # Never ship the modules of an earlier build (another machine's CPU, or kept
        # when this one fails): they are written anew or not at all.
        # An editable install's copy beside the sources is unlinked too (a process that
        # has it loaded keeps its file; the copy after the build is a new file).
        for name in AOT_MODULES:
            pathlib.Path(self.get_ext_fullpath(name)).unlink(missing_ok=True)
            if getattr(self, "editable_mode", False):
                (ROOT / "framework" / pathlib.Path(self.get_ext_filename(name)).name).unlink(
                    missing_ok=True)
        if os.environ.get("MERGANSER_AOT", "1").strip().lower() in ("0", "no", "false", "off"):
            print("merganser: MERGANSER_AOT=0, ahead-of-time kernels not built", file=sys.stderr)
            return None
        output.parent.mkdir(parents=True, exist_ok=True)
        code = _BUILD_CHILD.format(root=str(ROOT), output=str(output.parent))
        try:
            proc = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT),
                                  capture_output=True, text=True)
        except OSError as exc:
            proc = None
            why = str(exc)
        else:
            why = (proc.stderr or proc.stdout).strip().splitlines()[-1:] if proc.returncode else ""
        if proc is not None and proc.returncode == 0:
            print(proc.stdout.strip(), file=sys.stderr)
            return None
        print("merganser: the ahead-of-time kernels could not be built "
              f"({''.join(why) or 'no reason given'}); they compile at first use instead "
              "(a C compiler is needed to build them)", file=sys.stderr)
        return None


setup(packages=sorted(set(packages)), package_dir=package_dir,
      ext_modules=[Extension(name, sources=[], optional=True) for name in AOT_MODULES],
      cmdclass={"build_ext": BuildAheadOfTime})
