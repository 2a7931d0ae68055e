"""Drake's scalar conversion surface, for a framework that computes in float64 only:
SystemScalarConverter and TemplateSystem (pydrake.systems.scalar_conversion).

Drake converts a ``System<double>`` into a ``System<AutoDiffXd>`` or
``System<Expression>`` through the SystemScalarConverter each system carries. merganser
computes in float64 only (differentiate with ``linearize`` or finite differences), so a
converter here supports the one scalar ``float`` and no conversion pair; it exists so that
pydrake code that hands converters around (``LeafSystem.__init__(self, converter=...)``,
``system.get_system_scalar_converter()``) runs unchanged.

TemplateSystem is pydrake's way of writing a Python system once for every scalar type::

    @TemplateSystem.define("MySystem_")
    def MySystem_(T):
        class Impl(LeafSystem_[T]):
            def _construct(self, gain, converter=None):
                LeafSystem_[T].__init__(self, converter=converter)
                self.gain = gain

            def _construct_copy(self, other, converter=None):
                Impl._construct(self, other.gain, converter=converter)
        return Impl

    MySystem = MySystem_[None]        # the float64 instantiation, as MySystem_[float]

The template calls the function with ``float`` on first use; the class it returns gets an
``__init__`` that passes ``converter`` on: ``MySystem(2.0)`` runs ``_construct(2.0)`` and
``MySystem(other)`` (one instance of the template) runs ``_construct_copy(other)``.
"""

__all__ = ["SystemScalarConverter", "TemplateSystem"]


def _type_name(t):
    return getattr(t, "__name__", repr(t))


class SystemScalarConverter:
    """The scalar conversions a system supports (Drake's SystemScalarConverter): none.

    ``SupportedScalars`` is ``(float,)`` and ``SupportedConversionPairs`` is empty, since
    merganser computes in float64 only; ``is_convertible(T, U)`` is therefore False for
    every pair (also (float, float): Drake does not convert a system to its own type).
    """

    SupportedScalars = (float,)
    SupportedConversionPairs = ()

    def __copy__(self):
        return SystemScalarConverter()

    def empty(self):
        """True: no conversion is registered."""
        return True

    def is_convertible(self, T, U):
        """Whether a ``System_[U]`` converts to a ``System_[T]``: always False here.

        Parameters
        ----------
        T, U : type
            The target and source scalar types.
        """
        for arg, value in (("T", T), ("U", U)):
            if not isinstance(value, type) and not hasattr(value, "__name__"):
                raise TypeError(f"SystemScalarConverter.is_convertible: {arg} must be a scalar "
                                f"type, got {value!r}")
        return False

    def __repr__(self):
        return "SystemScalarConverter()"


def _convert(system, fn, T, maybe):
    """Drake's ToScalarType<T>(system) / ToScalarTypeMaybe<T>(system), float64 only."""
    if maybe:
        return None
    if T is float:
        raise RuntimeError(
            f"{fn}[float]: system '{system.get_name()}' ({type(system).__name__}) is "
            f"already float64; Drake does not convert a system to its own scalar type")
    name = "AutoDiffXd" if "AutoDiff" in _type_name(T) else (
        "Expression" if "Expression" in _type_name(T) else repr(T))
    system._no_scalar_conversion(f"{fn}[{T!r}]", name)


class _ScalarConversion:
    """``system.to_scalar_type[T]()`` or ``System.to_scalar_type[T](system)``."""

    def __init__(self, system, fn, maybe):
        self._system, self._fn, self._maybe = system, fn, maybe

    def __getitem__(self, T):
        if self._system is None:
            return lambda system: _convert(system, self._fn, T, self._maybe)
        return lambda: _convert(self._system, self._fn, T, self._maybe)


class ScalarConversionProperty(property):
    """The attribute ``to_scalar_type`` (``maybe=False``) or ``to_scalar_type_maybe``
    of System: indexed by the scalar type on an instance (``system.to_scalar_type[T]()``)
    or on the class (``Adder.to_scalar_type[T](system)``), as pydrake's template methods."""

    def __init__(self, fn, maybe, doc):
        super().__init__(doc=doc)
        self._fn, self._maybe = fn, maybe

    def __get__(self, obj, objtype=None):
        return _ScalarConversion(obj, self._fn, self._maybe)


class TemplateSystem:
    """A system class written once for every scalar type (pydrake's TemplateSystem); here
    its one instantiation is ``float`` (``[None]`` is the default, the same class).

    Parameters
    ----------
    name : str
        The template's name, ``"MySystem_"``.
    T_list : list of type, optional
        The scalar types the template declares (default ``[float]``); only ``float`` can be
        instantiated, the others raise RuntimeError when indexed.
    T_pairs : list of (type, type), optional
        Declared conversion pairs (T, U); each must be in `T_list`. None are performed.
    scope : module or object, optional
        Accepted for pydrake's signature; unused.
    """

    def __init__(self, name, T_list=None, T_pairs=None, scope=None):
        if not isinstance(name, str):
            raise TypeError(f"TemplateSystem: name must be a str, got {type(name).__name__}")
        self.name = name
        self.T_list = list(T_list) if T_list is not None else [float]
        for pair in T_pairs or ():
            if len(pair) != 2 or not all(t in self.T_list for t in pair):
                raise ValueError(f"TemplateSystem {name!r}: conversion pair {pair!r} is not in "
                                 f"T_list {self.T_list!r}")
        self.T_pairs = list(T_pairs or ())
        self.param_list = [(float,)]
        self._instantiator = None
        self._cls = None

    @classmethod
    def define(cls, name, T_list=None, T_pairs=None, scope=None):
        """A decorator: the template `name` whose classes the decorated function ``f(T)``
        returns."""
        template = cls(name, T_list=T_list, T_pairs=T_pairs, scope=scope)

        def decorator(instantiator):
            if not callable(instantiator):
                raise TypeError(f"TemplateSystem.define({name!r}): expected a function f(T), "
                                f"got {instantiator!r}")
            template._instantiator = instantiator
            return template
        return decorator

    def __getitem__(self, param):
        T = param[0] if isinstance(param, tuple) and len(param) == 1 else param
        if T is None or T is float:
            return self._float_class()
        where = "declared in T_list but merganser computes in float64 only" if T in self.T_list \
            else f"not in T_list {[_type_name(t) for t in self.T_list]}"
        raise RuntimeError(f"{self.name}[{T!r}]: the scalar type is {where}; expected float "
                           f"(or None for the default)")

    def __call__(self, *args, **kwargs):
        """Construct the default (float64) instantiation."""
        return self._float_class()(*args, **kwargs)

    def get_instantiation(self, param=None):
        """(the class, the parameter tuple) for `param` (default: float)."""
        return self[param], (float,)

    def is_instantiation(self, obj):
        """Whether `obj` is this template's (float64) class."""
        return self._cls is not None and obj is self._cls

    def is_subclass_of_instantiation(self, obj):
        """(float,) when the class `obj` derives from the float64 class, else None."""
        return (float,) if isinstance(obj, type) and issubclass(obj, self._float_class()) \
            else None

    def _float_class(self):
        if self._cls is None:
            if self._instantiator is None:
                raise RuntimeError(f"{self.name}: no class is defined; decorate a function f(T) "
                                   f"with TemplateSystem.define({self.name!r})")
            cls = self._instantiator(float)
            for required in ("_construct", "_construct_copy"):
                if not callable(getattr(cls, required, None)):
                    raise TypeError(f"{self.name}[float]: the class must define {required}(self, "
                                    f"..., converter=None)")
            if "__init__" in vars(cls):
                raise TypeError(f"{self.name}[float]: the class must not define __init__; "
                                f"define _construct and _construct_copy instead")
            template = self

            def __init__(obj, *args, converter=None, **kwargs):
                converter = SystemScalarConverter() if converter is None else converter
                if len(args) == 1 and not kwargs and isinstance(args[0], template._cls):
                    type(obj)._construct_copy(obj, args[0], converter=converter)
                else:
                    type(obj)._construct(obj, *args, converter=converter, **kwargs)
            cls.__init__ = __init__
            cls.__name__ = cls.__qualname__ = f"{self.name}[float]"
            self._cls = cls
        return self._cls

    def __repr__(self):
        return f"<TemplateSystem {self.name}>"
