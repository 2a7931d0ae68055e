"""MultilayerPerceptron: a feed-forward neural network as a system (Drake's)."""


import numpy as np

from ..context import Context
from ..drake_enum import DrakeIntEnum
from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem


class PerceptronActivationType(DrakeIntEnum):
    """Elementwise activation of a layer (Drake's PerceptronActivationType)."""

    kIdentity = 0
    kReLU = 1
    kTanh = 2


def _activate(kind, Z, gradient):
    """σ(Z) and, when ``gradient``, dσ/dZ elementwise."""
    if kind == PerceptronActivationType.kTanh:
        Y = np.tanh(Z)
        return Y, (1.0 - Y * Y) if gradient else None
    if kind == PerceptronActivationType.kReLU:
        return np.maximum(Z, 0.0), (Z > 0.0).astype(float) if gradient else None
    return Z, np.ones_like(Z) if gradient else None


class MultilayerPerceptron(LeafSystem):
    """y = σₗ(Wₗ … σ₀(W₀ f(x) + b₀) … + bₗ), the weights and biases one numeric parameter.

    ::

        x ──▶ ┌──────────────────────┐
              │ MultilayerPerceptron │ ──▶ y
              └──────────────────────┘

    Drake's three forms: ``(layers, activation_type=kTanh)`` (the last layer is then the
    identity), ``(layers, activation_types)`` (one per weight layer) and
    ``(use_sin_cos_for_input, remaining_layers, activation_types)``, where each input
    flagged True enters as the two features [sin xᵢ, cos xᵢ]. The parameter vector holds,
    layer by layer, Wᵢ (column-major, shape (layers[i+1], layers[i])) then bᵢ; it is
    zero by default and uniform in ±sqrt(3 / layers[i]) under ``set_random_context``.

    Parameters
    ----------
    layers : list[int]
        Sizes from the (feature) input to the output, at least two entries.
    activation_type : PerceptronActivationType
    activation_types : list[PerceptronActivationType]
    use_sin_cos_for_input : list[bool]
    remaining_layers : list[int]
    """

    @lists_valid_keywords
    def __init__(self, *args, layers=None, activation_type=PerceptronActivationType.kTanh,
                 activation_types=None, use_sin_cos_for_input=None, remaining_layers=None):
        super().__init__()
        fn = "MultilayerPerceptron"
        if len(args) == 3:
            use_sin_cos_for_input, remaining_layers, activation_types = args
        elif args:
            layers = args[0]
            if len(args) == 2:
                if isinstance(args[1], (list, tuple)):
                    activation_types = args[1]
                else:
                    activation_type = args[1]
        if use_sin_cos_for_input is None:
            if layers is None or len(layers) < 2:
                raise ValueError(f"{fn}: layers must have at least two entries, got {layers!r}")
            use_sin_cos_for_input = [False] * int(layers[0])
            remaining_layers = list(layers[1:])
            if activation_types is None:
                activation_types = [activation_type] * (len(remaining_layers) - 1) + [
                    PerceptronActivationType.kIdentity]
        self._sin_cos = [bool(b) for b in use_sin_cos_for_input]
        self._layers = [len(self._sin_cos) + sum(self._sin_cos)] + [int(n) for n in
                                                                  remaining_layers]
        self._activations = [PerceptronActivationType(a) for a in activation_types]
        if len(self._activations) != len(self._layers) - 1 or min(self._layers) < 1:
            raise ValueError(f"{fn}: layers {self._layers} need positive sizes and "
                             f"{len(self._layers) - 1} activation types, got "
                             f"{len(self._activations)}")
        self._w_index, self._b_index = [], []
        n = 0
        for i in range(len(self._layers) - 1):
            self._w_index.append(n)
            n += self._layers[i + 1] * self._layers[i]
            self._b_index.append(n)
            n += self._layers[i + 1]
        self._num_parameters = n
        self.declare_vector_input_port("x", len(self._sin_cos))
        self.declare_numeric_parameter(np.zeros(n))
        self.declare_vector_output_port("y", self._layers[-1], self._calc_y,
                                        {self.all_input_ports_ticket(),
                                         self.all_parameters_ticket()})

    # ---- structure --------------------------------------------------------------------------
    def num_parameters(self):
        return self._num_parameters

    def layers(self):
        """Sizes from the feature input to the output (sin/cos inputs count twice)."""
        return list(self._layers)

    def activation_type(self, layer):
        return self._activations[layer]

    # ---- parameters ---------------------------------------------------------------------------
    def _params(self, context, params, fn):
        if params is not None:
            if not isinstance(params, np.ndarray) or params.size != self._num_parameters:
                raise ValueError(f"{fn}: params must be an ndarray of {self._num_parameters} "
                                 f"values (system '{self._name}')")
            return params.reshape(-1)
        if not isinstance(context, Context):
            raise TypeError(f"{fn}: give a context or params (system '{self._name}')")
        self.validate_context(context)
        return context.get_numeric_parameter(0)

    def get_parameters(self, context):
        """All parameters, shape (num_parameters(),), read-only."""
        return self._params(context, None, "get_parameters")

    def get_mutable_parameters(self, context):
        """All parameters as a writable view into ``context``."""
        self.validate_context(context)
        return context.get_mutable_numeric_parameter(0).get_mutable_value()

    def set_parameters(self, context, params):
        self.validate_context(context)
        context.set_numeric_parameter(0, params)

    def _layer(self, fn, layer):
        if not 0 <= int(layer) < len(self._activations):
            raise IndexError(f"{fn}: layer {layer} out of range for {len(self._activations)} "
                             f"weight layers (system '{self._name}')")
        i = int(layer)
        return i, self._layers[i + 1], self._layers[i]

    def get_weights(self, context=None, layer=0, *, params=None):
        """Wᵢ of ``layer`` from ``context`` or from a parameter vector ``params``."""
        if isinstance(context, np.ndarray):
            context, params = None, context
        p = self._params(context, params, "get_weights")
        i, rows, cols = self._layer("get_weights", layer)
        return p[self._w_index[i]:self._w_index[i] + rows * cols].reshape((rows, cols),
                                                                          order="F")

    def get_biases(self, context=None, layer=0, *, params=None):
        """bᵢ of ``layer`` from ``context`` or from a parameter vector ``params``."""
        if isinstance(context, np.ndarray):
            context, params = None, context
        p = self._params(context, params, "get_biases")
        i, rows, _ = self._layer("get_biases", layer)
        return p[self._b_index[i]:self._b_index[i] + rows]

    def _write(self, fn, context, params, start, values):
        if isinstance(context, np.ndarray):
            context, params = None, context
        if params is not None:
            self._params(None, params, fn)[start:start + values.size] = values
        else:
            self.get_mutable_parameters(context)[start:start + values.size] = values

    def set_weights(self, context=None, layer=0, W=None, *, params=None):
        """Write Wᵢ (shape (layers[i+1], layers[i])) into ``context`` or ``params``."""
        i, rows, cols = self._layer("set_weights", layer)
        W = np.asarray(W, dtype=float)
        if W.shape != (rows, cols):
            raise ValueError(f"set_weights: W of layer {i} must have shape {(rows, cols)}, got "
                             f"{W.shape} (system '{self._name}')")
        self._write("set_weights", context, params, self._w_index[i], W.reshape(-1, order="F"))

    def set_biases(self, context=None, layer=0, b=None, *, params=None):
        """Write bᵢ (shape (layers[i+1],)) into ``context`` or ``params``."""
        i, rows, _ = self._layer("set_biases", layer)
        b = np.asarray(b, dtype=float).reshape(-1)
        if b.size != rows:
            raise ValueError(f"set_biases: b of layer {i} must have {rows} values, got "
                             f"{b.size} (system '{self._name}')")
        self._write("set_biases", context, params, self._b_index[i], b)

    def set_random_parameters(self, context, parameters, generator):
        p = parameters.get_mutable_numeric_parameter(0).get_mutable_value()
        for i in range(len(self._activations)):
            m = np.sqrt(3.0 / self._layers[i])
            n = self._layers[i + 1] * (self._layers[i] + 1)
            p[self._w_index[i]:self._w_index[i] + n] = m * generator.uniform(-1.0, 1.0, n)

    # ---- evaluation ---------------------------------------------------------------------------
    def _features(self, X):
        rows = []
        for k, sin_cos in enumerate(self._sin_cos):
            rows += [np.sin(X[k]), np.cos(X[k])] if sin_cos else [X[k]]
        return np.array(rows)

    def _forward(self, params, X, gradient):
        """The layer outputs Xₙ and activation slopes for the batch X (columns)."""
        outputs, slopes = [], []
        A = self._features(X)
        for i, kind in enumerate(self._activations):
            Z = self.get_weights(params=params, layer=i) @ A + \
                self.get_biases(params=params, layer=i)[:, None]
            A, slope = _activate(kind, Z, gradient)
            outputs.append(A)
            slopes.append(slope)
        return outputs, slopes

    def _calc_y(self, context, output):
        outputs, _ = self._forward(context.get_numeric_parameter(0),
                                   np.asarray(self.get_input_port().eval(context))[:, None], False)
        output.set_value(outputs[-1][:, 0])

    def _batch(self, fn, context, X):
        self.validate_context(context)
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[0] != len(self._sin_cos):
            raise ValueError(f"{fn}: X must have shape ({len(self._sin_cos)}, N), got "
                             f"{X.shape} (system '{self._name}')")
        return context.get_numeric_parameter(0), X

    def batch_output(self, context, X, Y=None, dYdX=None):
        """The outputs for the columns of X (shape (n_in, N)), written into ``Y``
        (shape (n_out, N)) when given and returned; ``dYdX`` (shape (n_in, N), output
        size 1 only) receives each column's gradient."""
        fn = "batch_output"
        params, X = self._batch(fn, context, X)
        if dYdX is not None and self._layers[-1] != 1:
            raise ValueError(f"{fn}: dYdX is only supported for an output of size 1, system "
                             f"'{self._name}' has {self._layers[-1]}")
        outputs, slopes = self._forward(params, X, dYdX is not None)
        if Y is None:
            Y = outputs[-1].copy()
        else:
            if Y.shape != outputs[-1].shape:
                raise ValueError(f"{fn}: Y must have shape {outputs[-1].shape}, got {Y.shape}")
            Y[...] = outputs[-1]
        if dYdX is not None:
            G = np.ones((1, X.shape[1]))
            for i in range(len(self._activations) - 1, -1, -1):
                G = self.get_weights(params=params, layer=i).T @ (G * slopes[i])
            rows, r = [], 0
            for k, sin_cos in enumerate(self._sin_cos):
                if sin_cos:
                    rows.append(G[r] * np.cos(X[k]) - G[r + 1] * np.sin(X[k]))
                    r += 2
                else:
                    rows.append(G[r])
                    r += 1
            dYdX[...] = np.array(rows)
        return Y

    def backpropagation(self, context, X, loss, dloss_dparams):
        """``loss(Y, dloss_dY) -> float`` of the batch outputs Y (shape (n_out, N)); the
        callback fills ``dloss_dY`` in place. Writes dloss/dparams into ``dloss_dparams``
        (shape (num_parameters(),)) and returns the loss."""
        fn = "backpropagation"
        params, X = self._batch(fn, context, X)
        if not isinstance(dloss_dparams, np.ndarray) or dloss_dparams.size != self._num_parameters:
            raise ValueError(f"{fn}: dloss_dparams must be an ndarray of "
                             f"{self._num_parameters} values")
        outputs, slopes = self._forward(params, X, True)
        dloss_dY = np.full(outputs[-1].shape, np.nan)
        value = loss(outputs[-1], dloss_dY)
        G = dloss_dY
        inputs = [self._features(X)] + outputs[:-1]
        for i in range(len(self._activations) - 1, -1, -1):
            dZ = G * slopes[i]
            self.set_weights(params=dloss_dparams, layer=i, W=dZ @ inputs[i].T)
            self.set_biases(params=dloss_dparams, layer=i, b=dZ.sum(axis=1))
            G = self.get_weights(params=params, layer=i).T @ dZ
        return value

    def backpropagation_mean_squared_error(self, context, X, Y_desired, dloss_dparams):
        """``backpropagation`` of the loss Σ‖y − y_d‖² / N over the N columns."""
        Y_desired = np.asarray(Y_desired, dtype=float)

        def mean_squared_error(Y, dloss_dY):
            if Y_desired.shape != Y.shape:
                raise ValueError(f"backpropagation_mean_squared_error: Y_desired must have "
                                 f"shape {Y.shape}, got {Y_desired.shape}")
            dloss_dY[...] = 2.0 * (Y - Y_desired) / Y.shape[1]
            return float(np.sum((Y - Y_desired) ** 2) / Y.shape[1])

        return self.backpropagation(context, X, mean_squared_error, dloss_dparams)
