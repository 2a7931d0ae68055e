"""Selector and SelectorParams: outputs made of chosen input elements (Drake's Selector)."""

import dataclasses

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import feedthrough_matrices, select_ports


@dataclasses.dataclass
class InputPortParams:
    """One input port of a Selector: its name and size."""

    name: str = ""
    size: int = 0


@dataclasses.dataclass
class OutputSelection:
    """One output element of a Selector: element ``input_offset`` of input port
    ``input_port_index``."""

    input_port_index: int = 0
    input_offset: int = 0


@dataclasses.dataclass
class OutputPortParams:
    """One output port of a Selector: its name and, element by element, where it comes from."""

    name: str = ""
    selections: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class SelectorParams:
    """The ports of a Selector (Drake's SelectorParams).

    Attributes
    ----------
    inputs : list of SelectorParams.InputPortParams
    outputs : list of SelectorParams.OutputPortParams
    """

    inputs: list = dataclasses.field(default_factory=list)
    outputs: list = dataclasses.field(default_factory=list)

    InputPortParams = InputPortParams
    OutputSelection = OutputSelection
    OutputPortParams = OutputPortParams


class Selector(LeafSystem):
    """Each output element is one element of one input port.

    ::

        u0 ──▶ ┌──────────┐ ──▶ y0
        ...    │ Selector │ ...
        uN ──▶ └──────────┘ ──▶ yM

    Ports and selections come from ``params``; every output is direct feedthrough of the
    inputs it selects from. An input port of size 0 is allowed, as is an output port
    with no selections.

    Parameters
    ----------
    params : SelectorParams
    """

    @lists_valid_keywords
    def __init__(self, params):
        super().__init__()
        fn = "Selector"
        if not isinstance(params, SelectorParams):
            raise TypeError(f"{fn}: params must be a SelectorParams, got {type(params).__name__}")
        sizes = []
        for i, port in enumerate(params.inputs):
            size = int(port.size)
            if size < 0:
                raise ValueError(f"{fn}: inputs[{i}] ({port.name!r}) has size {size}, "
                                 "expected >= 0")
            sizes.append(size)
            self.declare_vector_input_port(port.name or f"u{i}", size)
        starts = np.concatenate([[0], np.cumsum(sizes, dtype=int)])
        self._picks = []          # per output: indices into the concatenated inputs
        for j, port in enumerate(params.outputs):
            picks = []
            for k, sel in enumerate(port.selections):
                i, offset = int(sel.input_port_index), int(sel.input_offset)
                if not 0 <= i < len(sizes):
                    raise ValueError(f"{fn}: outputs[{j}].selections[{k}] uses input port {i}, "
                                     f"expected 0 <= index < {len(sizes)}")
                if not 0 <= offset < sizes[i]:
                    raise ValueError(f"{fn}: outputs[{j}].selections[{k}] uses offset {offset} "
                                     f"of input port {i} of size {sizes[i]}")
                picks.append(starts[i] + offset)
            picks = np.array(picks, dtype=np.int64)
            self._picks.append(picks)
            used = sorted({int(sel.input_port_index) for sel in port.selections})
            self.declare_vector_output_port(
                port.name or f"y{j}", picks.size, self._make_calc(picks),
                [self.input_port_ticket(i) for i in used] or [self.nothing_ticket()])

    def _make_calc(self, picks):
        def calc(context, output):
            u = np.concatenate([self.get_input_port(i).eval(context)
                                for i in range(self.num_input_ports())] or [np.zeros(0)])
            output.get_mutable_value()[:] = u[picks]
        return calc

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: D is a selection matrix (one 1 per output row)."""
        m = sum(self.get_input_port(i).size() for i in range(self.num_input_ports()))
        rows = np.concatenate(self._picks) if self._picks else np.zeros(0, dtype=np.int64)
        D = np.zeros((rows.size, m))
        D[np.arange(rows.size), rows] = 1.0
        return select_ports(self, feedthrough_matrices(D), input_port_index, output_port_index)
