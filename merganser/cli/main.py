"""The ``merganser`` command: ``inspect``, ``simulate``, ``examples`` and ``warmup``.

::

    merganser inspect MODEL [--json] [--strict] [--package NAME=PATH]
    merganser simulate MODEL [--time T] [--time-step H] [--contact MODEL]
                             [--solver NAME] [--hold] [--weld BODY] [--actuate] [--html OUT]
    merganser examples [NAME [--quick] [--html OUT] [--plots DIR]]
    merganser warmup [--group NAME ...] [--no-progress]

Exit codes: 0 success; 1 the command failed (a parse error, a failed simulation or
example); 2 bad usage (an unknown option, a bad value, a missing file), with a message
naming the option.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from merganser.cli import CommandError

__all__ = ["build_parser", "main"]


def _existing_file(text):
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"file '{text}' does not exist")
    return path


def _finite_float(text, allow_zero):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got '{text}'") from None
    ok = value >= 0.0 if allow_zero else value > 0.0
    if not ok or value == float("inf"):
        bound = ">= 0" if allow_zero else "> 0"
        raise argparse.ArgumentTypeError(f"expected a finite number {bound}, got '{text}'")
    return value


def _positive_float(text):
    return _finite_float(text, allow_zero=False)


def _nonnegative_float(text):
    return _finite_float(text, allow_zero=True)


def _package(text):
    name, sep, folder = text.partition("=")
    if not sep or not name or not folder:
        raise argparse.ArgumentTypeError(f"expected NAME=PATH, got '{text}'")
    if not Path(folder).is_dir():
        raise argparse.ArgumentTypeError(f"package folder '{folder}' does not exist")
    return name, folder


def _add_model_arguments(sub):
    sub.add_argument("model", metavar="MODEL", type=_existing_file,
                     help="URDF (.urdf), SDFormat (.sdf) or MJCF (.xml) file")
    sub.add_argument("--package", metavar="NAME=PATH", type=_package, action="append",
                     default=[], help="map package://NAME to PATH (repeatable); every "
                                      "folder above MODEL is mapped to its name already")
    sub.add_argument("--strict", action="store_true",
                     help="treat parser warnings as errors")


def build_parser():
    """The argparse parser of the ``merganser`` command."""
    from merganser.cli import examples_command, inspect_command, simulate_command, warmup_command

    parser = argparse.ArgumentParser(
        prog="merganser",
        description="Inspect and simulate robot models, and run the merganser examples.")
    subs = parser.add_subparsers(dest="command", metavar="COMMAND")
    subs.required = True

    inspect = subs.add_parser(
        "inspect", help="import report, bodies, joints, nq/nv, total mass, warnings",
        description="Load MODEL and print its import report, model instances, bodies, "
                    "joints, actuators, nq/nv/nu, total mass and the parser warnings.")
    _add_model_arguments(inspect)
    inspect.add_argument("--json", action="store_true", help="print JSON instead of text")
    inspect.set_defaults(run=inspect_command.run)

    simulate = subs.add_parser(
        "simulate", help="drop the model (or hold it) and write an HTML replay",
        description="Simulate MODEL under gravity: dropped (passive), or held in place by "
                    "gravity compensation with --hold; optionally on a ground plane with "
                    "contact, writing a self-contained HTML replay with --html.")
    _add_model_arguments(simulate)
    simulate.add_argument("--time", metavar="T", type=_positive_float, default=2.0,
                          help="simulated time in s (default 2)")
    simulate.add_argument("--time-step", metavar="H", type=_nonnegative_float, default=None,
                          help="discrete plant period in s; 0 for a continuous plant "
                               "(default: 0, or 1e-3 with --contact)")
    simulate.add_argument("--contact", choices=simulate_command.CONTACT_MODELS, default="none",
                          help="contact with a ground plane at z = --ground (default none)")
    simulate.add_argument("--solver", choices=simulate_command.SOLVERS, default=None,
                          help="discrete contact solver (default sap); needs --contact")
    simulate.add_argument("--self-collision", action="store_true",
                          help="with --contact, keep collisions between the model's own "
                               "bodies (filtered by default)")
    simulate.add_argument("--ground", metavar="Z", type=float, default=0.0,
                          help="height of the ground plane in m (default 0)")
    simulate.add_argument("--hold", action="store_true",
                          help="hold the model with gravity compensation instead of "
                               "dropping it (models without a free base)")
    simulate.add_argument("--height", metavar="H", type=float, default=0.5,
                          help="start free base bodies H m above their default pose "
                               "(default 0.5)")
    simulate.add_argument("--weld-base", action="store_true",
                          help="weld a free base body to the world at its default pose")
    simulate.add_argument("--weld", metavar="BODY", action="append", default=[],
                          help="weld BODY to the world at its default pose (repeatable)")
    simulate.add_argument("--actuate", action="store_true",
                          help="add an actuator to every one-dof joint that has none "
                               "(inputs held at zero)")
    simulate.add_argument("--html", metavar="OUT", default=None,
                          help="write a self-contained HTML replay to OUT")
    simulate.set_defaults(run=simulate_command.run)

    examples = subs.add_parser(
        "examples", help="list the examples, or run one",
        description="Without NAME, list the examples with their one-line summary; with "
                    "NAME, run it (the remaining options are passed to it).")
    examples.add_argument("name", metavar="NAME", nargs="?", default=None,
                          help="example to run (see the list)")
    examples.add_argument("--quick", action="store_true", help="shortened run")
    examples.add_argument("--html", metavar="OUT", default=None,
                          help="write the example's HTML replay to OUT")
    examples.add_argument("--plots", metavar="DIR", default=None,
                          help="save the example's PNG plots in DIR")
    examples.set_defaults(run=examples_command.run)

    warmup = subs.add_parser(
        "warmup", help="compile every kernel ahead (for images and CI)",
        description="Compile the numba kernels (or load them from the cache) by running one "
                    "small scene per group, with a progress bar; a later first run on this "
                    "machine then compiles nothing. Groups: "
                    + ", ".join(g[0] for g in warmup_command.WARMUP_GROUPS) + ".")
    warmup.add_argument("--group", metavar="NAME", action="append",
                        choices=[g[0] for g in warmup_command.WARMUP_GROUPS], default=[],
                        help="warm up only this group (repeatable; default all)")
    warmup.add_argument("--no-progress", action="store_true", help="no progress bar")
    warmup.set_defaults(run=warmup_command.run)
    return parser


def main(argv=None):
    """Run the ``merganser`` command with `argv` (default ``sys.argv[1:]``); return the
    exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "simulate" and args.solver is not None and args.contact == "none":
        parser.error(f"simulate: --solver {args.solver} selects a contact solver and needs "
                     f"--contact point|hydroelastic|hydroelastic_with_fallback")
    try:
        return args.run(args, parser) or 0
    except CommandError as e:
        print(f"merganser {args.command}: error: {e}", file=sys.stderr)
        return 1
    except (ValueError, RuntimeError) as e:     # ParseError, simulation failures, ...
        print(f"merganser {args.command}: error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
