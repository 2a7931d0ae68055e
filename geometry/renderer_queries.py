"""RendererQueries: SceneGraph's renderer queries (Drake's RendererCount, HasRenderer,
GetRendererTypeName, GetRendererParameterYaml, RemoveRenderer), answered truthfully.

merganser has no render engines: no renderer is ever registered, so the count is 0, no
name is present, the type name and parameter YAML of any name are "" (Drake's answer for
an unknown name) and removing one raises RuntimeError, as Drake does for a missing name.
Each query has Drake's Context variant, given the Context first (``renderer_count(ctx)``,
``has_renderer(ctx, name)``); the Context is checked to belong to the SceneGraph.
There is no ``add_renderer``: rendering is not offered rather than faked.
"""

__all__ = ["RendererQueries"]


class RendererQueries:
    """Mixin of SceneGraph: the renderer queries of the module docstring."""

    def _renderer_name(self, fn, args):
        """The name of ``fn(name)`` / ``fn(context, name)``, the Context checked."""
        if len(args) == 2:
            self._check_context(args[0], f"SceneGraph.{fn}")
            args = args[1:]
        if len(args) != 1:
            raise TypeError(f"SceneGraph.{fn}: expected (name) or (context, name), got "
                            f"{len(args)} arguments")
        name = args[0]
        if not isinstance(name, str):
            raise TypeError(f"SceneGraph.{fn}: name must be a str, got {type(name).__name__}")
        return name

    def renderer_count(self, context=None):
        """Number of renderers registered: always 0 (merganser has no render engines).

        Parameters
        ----------
        context : Context, optional
            Drake's Context variant (queries the Context's copy of the model).
        """
        if context is not None:
            self._check_context(context, "SceneGraph.renderer_count")
        return 0

    def has_renderer(self, *args):
        """``has_renderer(name)`` or ``has_renderer(context, name)``: always False."""
        self._renderer_name("has_renderer", args)
        return False

    def get_renderer_type_name(self, *args):
        """``get_renderer_type_name([context,] name)``: "" (Drake's answer for a name that
        is not registered, and none is)."""
        self._renderer_name("get_renderer_type_name", args)
        return ""

    def get_renderer_parameter_yaml(self, *args):
        """``get_renderer_parameter_yaml([context,] name)``: "" (Drake's answer for a
        name that is not registered, and none is)."""
        self._renderer_name("get_renderer_parameter_yaml", args)
        return ""

    def remove_renderer(self, *args):
        """``remove_renderer([context,] name)``: raises, as Drake does for a name that is
        not registered (none is).

        Raises
        ------
        RuntimeError
            Always.
        """
        name = self._renderer_name("remove_renderer", args)
        raise RuntimeError(f"SceneGraph.remove_renderer: a renderer with the name {name!r} "
                           f"does not exist (merganser registers no renderers)")
