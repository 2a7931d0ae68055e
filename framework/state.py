"""State value objects: ContinuousState, DiscreteValues and State (Drake's names).

A ContinuousState reads and writes through an *owner*: a Context (so that every write
marks the right dependents out of date: q, v and z separately) or a detached copy held
by a State that an unrestricted update handler fills. DiscreteValues wraps a list of
group arrays (a context's own, or copies the simulator hands to an update handler).
"""

import numpy as np

from .value import BasicVector, VectorBase, as_vector_base

class ContinuousState:
    """The continuous state x = [q; v; z] (Drake's ContinuousState).

    ``ContinuousState()`` is empty; ``ContinuousState(state, num_q=None, num_v=None,
    num_z=None)`` holds a copy of ``state`` (a BasicVector, VectorBase or array_like of n
    values; all of it z unless the sizes are given, which must add up to n).

    A context's ``get_continuous_state()`` gives read-only views (``get_vector()``,
    ``get_generalized_position()``, ...); its ``get_mutable_continuous_state()`` gives one
    whose ``get_vector()`` and ``get_mutable_*()`` are writable and mark what they cover
    as changed.
    """

    __slots__ = ("_owner", "_mutable")

    def __init__(self, state=None, num_q=None, num_v=None, num_z=None):
        fn = "ContinuousState"
        if state is None:
            x = np.zeros(0)
        else:
            values = state.get_value() if hasattr(state, "get_value") else state
            x = np.array(values, dtype=float).reshape(-1)
        sizes = (num_q, num_v, num_z)
        if all(n is None for n in sizes):
            nq, nv, nz = 0, 0, x.size
        elif any(n is None for n in sizes):
            raise TypeError(f"{fn}: give all of num_q, num_v and num_z or none, got {sizes}")
        else:
            nq, nv, nz = (int(n) for n in sizes)
            if min(nq, nv, nz) < 0 or nq + nv + nz != x.size or nv > nq:
                raise ValueError(
                    f"{fn}: num_q={nq}, num_v={nv}, num_z={nz} must be >= 0 with num_v <= num_q "
                    f"and add up to the state's size {x.size}")
        self._owner = _DetachedContinuousState(x, nq, nv, nz)
        self._mutable = True

    @classmethod
    def _of(cls, owner, mutable):
        """The ContinuousState reading (and, if ``mutable``, writing) through ``owner``."""
        obj = cls.__new__(cls)
        obj._owner, obj._mutable = owner, mutable
        return obj

    def clone(self):
        """A copy owning its values (no context)."""
        return ContinuousState(self.copy_to_vector(), self.num_q(), self.num_v(), self.num_z())

    def num_q(self):
        return self._owner._nq

    def num_v(self):
        return self._owner._nv

    def num_z(self):
        return self._owner._nz

    def size(self):
        o = self._owner
        return o._nq + o._nv + o._nz

    def __len__(self):
        return self.size()

    def get_vector(self):
        """All of x, shape (n,): writable (marking all of x changed) when this came from a
        mutable accessor, read-only otherwise."""
        return self._owner._xc_mutable() if self._mutable else self._owner._xc_read()

    def get_mutable_vector(self):
        """All of x, shape (n,), writable; marks q, v and z changed."""
        return self._owner._xc_mutable()

    def get_value(self):
        return self._owner._xc_read()

    def get_mutable_value(self):
        return self._owner._xc_mutable()

    def copy_to_vector(self):
        return np.array(self._owner._xc_read())

    def set_from_vector(self, value):
        self._owner._xc_write(value)

    set_value = set_from_vector

    def set_from(self, other):
        """Copy the values of another ContinuousState of the same layout."""
        if (other.num_q(), other.num_v(), other.num_z()) != (self.num_q(), self.num_v(), self.num_z()):
            raise ValueError(
                f"ContinuousState.set_from: layout (num_q, num_v, num_z) = "
                f"{(other.num_q(), other.num_v(), other.num_z())}, expected "
                f"{(self.num_q(), self.num_v(), self.num_z())}")
        self._owner._xc_write(other.copy_to_vector())

    def get_generalized_position(self):
        return self._owner._xc_part("q", False)

    def get_generalized_velocity(self):
        return self._owner._xc_part("v", False)

    def get_misc_continuous_state(self):
        return self._owner._xc_part("z", False)

    def get_mutable_generalized_position(self):
        """q, writable; only q-dependents go out of date."""
        return self._owner._xc_part("q", True)

    def get_mutable_generalized_velocity(self):
        """v, writable; only v-dependents go out of date."""
        return self._owner._xc_part("v", True)

    def get_mutable_misc_continuous_state(self):
        """z, writable; only z-dependents go out of date."""
        return self._owner._xc_part("z", True)

    def __getitem__(self, i):
        return self._owner._xc_read()[i]

    def __setitem__(self, i, value):
        self._owner._xc_mutable()[i] = value

    def __repr__(self):
        return (f"ContinuousState(num_q={self.num_q()}, num_v={self.num_v()}, "
                f"num_z={self.num_z()}, x={self.copy_to_vector().tolist()})")


class _DetachedContinuousState:
    """Owner of a ContinuousState copy (no cache to notify)."""

    __slots__ = ("_x", "_nq", "_nv", "_nz")

    def __init__(self, x, nq, nv, nz):
        self._x = x
        self._nq, self._nv, self._nz = nq, nv, nz

    def _xc_read(self):
        return as_vector_base(self._x, False)

    def _xc_mutable(self):
        return as_vector_base(self._x, True)

    def _xc_write(self, x):
        x = np.asarray(x, dtype=float)
        if x.size != self._x.size:
            raise ValueError(
                f"ContinuousState.set_from_vector: x has size {x.size}, expected {self._x.size}")
        self._x[:] = x.reshape(-1)

    def _xc_part(self, part, mutable):
        nq, nv = self._nq, self._nv
        start, stop = {"q": (0, nq), "v": (nq, nq + nv), "z": (nq + nv, self._x.size)}[part]
        return as_vector_base(self._x[start:stop], mutable)


def detached_continuous_state(x, nq, nv, nz):
    """A ContinuousState over the array ``x`` (owned by no context)."""
    return ContinuousState._of(_DetachedContinuousState(x, nq, nv, nz), True)


class DiscreteValues:
    """Discrete state groups (Drake's DiscreteValues).

    ``get_vector(i)`` / ``get_mutable_vector(i)`` give group ``i`` as a BasicVector;
    ``get_value(i)`` / ``get_mutable_value(i)`` as an ndarray; the single-group
    shortcuts (``set_value(x)``, ``value()``, ``x[k]``) address group 0.
    """

    __slots__ = ("_groups", "_on_write")

    def __init__(self, groups=None, on_write=None, *, data=None, datum=None):
        # pydrake's keywords: DiscreteValues(data=[BasicVector, ...]) / (datum=BasicVector).
        given = [g for g in (groups, data, datum) if g is not None]
        if len(given) > 1:
            raise TypeError("DiscreteValues: give one of groups, data and datum")
        groups = given[0] if given else None
        if datum is not None:
            groups = [datum]
        if groups is None:
            groups = []
        elif isinstance(groups, (BasicVector, np.ndarray)) or (
                groups and not hasattr(groups[0], "__len__")):
            groups = [groups]
        self._groups = [g.get_mutable_value() if isinstance(g, BasicVector)
                        else np.asarray(g, dtype=float) for g in groups]
        self._on_write = on_write

    def _written(self, i=None):
        if self._on_write is not None:
            self._on_write(i)

    def num_groups(self):
        return len(self._groups)

    def size(self):
        """Total number of discrete values across groups."""
        return sum(g.size for g in self._groups)

    def _check(self, fn, i):
        if not 0 <= i < len(self._groups):
            raise IndexError(
                f"DiscreteValues.{fn}: group {i} out of range; there are {len(self._groups)} "
                f"group(s)")
        return self._groups[i]

    def get_vector(self, index=0):
        return BasicVector._wrap(self._check("get_vector", index))

    def get_mutable_vector(self, index=0):
        group = self._check("get_mutable_vector", index)
        self._written(index)
        return BasicVector._wrap(group)

    def get_value(self, index=0):
        return as_vector_base(self._check("get_value", index), False)

    def value(self, index=0):
        return self.get_value(index)

    def get_mutable_value(self, index=0):
        group = self._check("get_mutable_value", index)
        self._written(index)
        return group

    def get_data(self):
        """The groups, as a list of BasicVectors."""
        return [BasicVector._wrap(g) for g in self._groups]

    def set_value(self, index_or_value, value=None):
        """``set_value(x)`` (group 0) or ``set_value(index, x)``."""
        if value is None:
            index, value = 0, index_or_value
        else:
            index = int(index_or_value)
        group = self._check("set_value", index)
        value = np.asarray(value, dtype=float).reshape(-1)
        if value.size != group.size:
            raise ValueError(
                f"DiscreteValues.set_value: group {index} has size {group.size}, got {value.size}")
        group[:] = value
        self._written(index)

    def set_from(self, other):
        """Copy the groups of ``other`` (same number and sizes of groups)."""
        if [g.size for g in other._groups] != [g.size for g in self._groups]:
            raise ValueError(
                f"DiscreteValues.set_from: group sizes {[g.size for g in other._groups]}, "
                f"expected {[g.size for g in self._groups]}")
        for dst, src in zip(self._groups, other._groups):
            dst[:] = src
        self._written(None)

    def clone(self):
        """An independent copy."""
        return DiscreteValues([g.copy() for g in self._groups])

    def __getitem__(self, i):
        return self._groups[0][i]

    def __setitem__(self, i, value):
        self._groups[0][i] = value
        self._written(0)

    def __repr__(self):
        return f"DiscreteValues({[g.tolist() for g in self._groups]})"


class AbstractValues:
    """Abstract state values (Drake's AbstractValues): ``get_value(i)`` is the Value."""

    __slots__ = ("_values",)

    def __init__(self, values):
        self._values = values

    def size(self):
        return len(self._values)

    def get_value(self, index):
        return self._values[index]

    def get_mutable_value(self, index):
        return self._values[index]

    def clone(self):
        """Deep copies of every Value."""
        return AbstractValues([v.clone() for v in self._values])

    def set_from(self, other):
        """Copy the held objects of ``other`` (same number of values) into these Values."""
        if other.size() != self.size():
            raise ValueError(f"AbstractValues.set_from: other has {other.size()} values, "
                             f"expected {self.size()}")
        for dst, src in zip(self._values, other._values):
            dst.set_from(src)


class State:
    """Continuous, discrete and abstract state together (Drake's State).

    The simulator hands an unrestricted update handler a copy of one leaf's state; the
    context's ``get_mutable_state()`` returns one that writes into the context.
    """

    def __init__(self, continuous, discrete, abstract):
        self._xc_state = continuous
        self._xd = discrete
        self._xa = abstract

    @classmethod
    def copy_of(cls, ctx):
        """A detached copy of a leaf context's state."""
        xc = np.array(ctx.get_continuous_state_vector(), dtype=float)
        return cls(detached_continuous_state(xc, ctx._nq, ctx._nv, ctx._nz),
                   DiscreteValues([g.copy() for g in ctx._xd]), [v.clone() for v in ctx._xa])

    @property
    def _xc(self):
        """The continuous state values (a writable array for a copy)."""
        return self._xc_state._owner._x

    def get_continuous_state(self):
        """The continuous state, read-only views."""
        return ContinuousState._of(self._xc_state._owner, False)

    def get_mutable_continuous_state(self):
        return self._xc_state

    def get_discrete_state(self, index=None):
        return self._xd if index is None else self._xd.get_vector(index)

    def get_mutable_discrete_state(self, index=None):
        return self._xd if index is None else self._xd.get_mutable_vector(index)

    def num_abstract_states(self):
        return len(self._xa)

    def get_abstract_state(self, index=None):
        """AbstractValues with no argument; the Value of state ``index`` otherwise."""
        if index is None:
            return AbstractValues(self._xa)
        return self._xa[index]

    def get_mutable_abstract_state(self, index=None):
        if index is None:
            return AbstractValues(self._xa)
        return self._xa[index]

    def set_abstract_state(self, index, value):
        self._xa[index].set_value(value)

    def set_from(self, other):
        """Copy all values of ``other`` (same layout)."""
        self._xc_state.set_from(other.get_continuous_state())
        self._xd.set_from(other._xd)
        for dst, src in zip(self._xa, other._xa):
            dst.set_value(src.clone().get_value())


class DiscreteStateView(VectorBase):
    """``context.get_discrete_state()`` without an index: Drake returns the DiscreteValues,
    merganser's callers read group 0 as an array. This is both: the read-only group-0
    array (empty when there are no groups) with DiscreteValues' group accessors.
    """

    def num_groups(self):
        """Number of discrete state groups."""
        return len(getattr(self, "_groups", ()))

    def get_vector(self, index=0):
        """Group ``index``, shape (n_i,), read-only."""
        return self._group("get_vector", index)

    def get_value(self, index=0):
        """Group ``index``, shape (n_i,), read-only."""
        return self._group("get_value", index)

    value = get_value

    def get_data(self):
        """The groups (read-only arrays)."""
        return list(getattr(self, "_groups", ()))

    def clone(self):
        """An independent DiscreteValues holding copies of the groups (Drake's Clone)."""
        return DiscreteValues([np.array(g, dtype=float) for g in getattr(self, "_groups", ())])

    def _group(self, fn, index):
        groups = getattr(self, "_groups", ())
        if not 0 <= int(index) < len(groups):
            raise IndexError(f"DiscreteValues.{fn}: group {index} out of range; there are "
                             f"{len(groups)} group(s)")
        return groups[int(index)]


def discrete_state_view(groups):
    """The DiscreteStateView of ``groups`` (read-only VectorBase arrays, one per group)."""
    first = groups[0] if groups else np.zeros(0)
    view = np.asarray(first).view(DiscreteStateView)
    view.flags.writeable = False
    view._groups = list(groups)
    return view
