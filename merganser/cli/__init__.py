"""merganser.cli: the ``merganser`` console script (inspect a model, simulate it, run the
examples). Entry point: `merganser.cli.main.main`."""

__all__ = ["CommandError"]


class CommandError(RuntimeError):
    """A command failed (exit code 1); its message is printed without a traceback."""
