"""Packaging glue: the folders framework/, geometry/, multibody/ and controllers/ at the
top of the repository install as merganser.framework, merganser.geometry, ... (pyproject
holds everything else). Subpackages are found here so that a new folder needs no edit."""

from setuptools import find_packages, setup

LAYERS = ("framework", "geometry", "multibody", "controllers")

packages = find_packages(include=["merganser", "merganser.*"])
package_dir = {"merganser": "merganser"}
for layer in LAYERS:
    for sub in find_packages(include=[layer, f"{layer}.*"]):
        packages.append(f"merganser.{sub}")
    package_dir[f"merganser.{layer}"] = layer

setup(packages=sorted(set(packages)), package_dir=package_dir)
