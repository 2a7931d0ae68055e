"""``merganser examples [NAME]``: list the example scripts, or run one.

The examples are the ``*.py`` files of the repository's ``examples/`` folder (next to
this package) whose names do not start with ``_``; the first paragraph of each module
docstring is its summary. Running one imports it and calls ``main(argv)`` with the
options given (``--quick``, ``--html OUT``, ``--plots DIR``).
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

from merganser.cli import CommandError

__all__ = ["EXAMPLES_DIR", "find_examples", "run", "run_example"]

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"


def find_examples(folder=EXAMPLES_DIR):
    """{name: summary (the docstring's first paragraph)} of the example scripts in
    `folder`, sorted by name."""
    found = {}
    for path in sorted(Path(folder).glob("*.py")):
        if path.name.startswith("_"):
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first_paragraph = doc.strip().split("\n\n")[0]
        found[path.stem] = " ".join(first_paragraph.split())
    return found


def run_example(name, argv=(), folder=EXAMPLES_DIR):
    """Import example `name` from `folder` and return ``main(list(argv))``."""
    folder = Path(folder)
    path = folder / f"{name}.py"
    if not path.is_file():
        raise FileNotFoundError(path)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location(f"merganser_example_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main(list(argv))


def run(args, parser):
    """Entry of ``merganser examples``."""
    if not EXAMPLES_DIR.is_dir():
        raise CommandError(f"the examples folder {EXAMPLES_DIR} does not exist (the "
                           f"examples ship with the source tree; install it with "
                           f"`pip install -e .`)")
    examples = find_examples()
    if args.name is None:
        if args.quick or args.html or args.plots:
            parser.error("--quick, --html and --plots need an example NAME")
        width = max(len(n) for n in examples)
        print("examples (run one with `merganser examples NAME [--quick] [--html OUT] "
              "[--plots DIR]`):")
        for name, summary in examples.items():
            print(f"  {name:<{width}}  {summary}")
        return 0
    if args.name not in examples:
        parser.error(f"argument NAME: unknown example '{args.name}'; choose from "
                     f"{', '.join(examples)}")
    argv = (["--quick"] if args.quick else []) + (["--html", args.html] if args.html else []) \
        + (["--plots", args.plots] if args.plots else [])
    try:
        run_example(args.name, argv)
    except AssertionError as e:
        raise CommandError(f"example '{args.name}' failed its check: {e}") from None
    return 0
