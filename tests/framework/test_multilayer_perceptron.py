"""MultilayerPerceptron: layout, forward pass by hand, and gradients against finite
differences."""

import numpy as np
import pytest

from merganser.framework import MultilayerPerceptron, PerceptronActivationType, RandomGenerator

kTanh, kReLU, kIdentity = (PerceptronActivationType.kTanh, PerceptronActivationType.kReLU,
                           PerceptronActivationType.kIdentity)


def _random(mlp, seed=4):
    ctx = mlp.create_default_context()
    mlp.set_random_context(ctx, RandomGenerator(seed))
    return ctx


def test_parameter_layout_is_drakes_column_major_weights_then_biases():
    mlp = MultilayerPerceptron([2, 3, 1], kReLU)
    assert mlp.num_parameters() == 3 * 2 + 3 + 1 * 3 + 1
    assert [mlp.activation_type(i) for i in range(2)] == [kReLU, kIdentity]
    params = np.zeros(mlp.num_parameters())
    W = np.arange(6.0).reshape(3, 2)
    mlp.set_weights(params=params, layer=0, W=W)
    mlp.set_biases(params=params, layer=0, b=[7.0, 8.0, 9.0])
    np.testing.assert_array_equal(params[:9], [0, 2, 4, 1, 3, 5, 7, 8, 9])
    np.testing.assert_array_equal(mlp.get_weights(params=params, layer=0), W)
    with pytest.raises(ValueError):
        mlp.set_weights(params=params, layer=0, W=np.zeros((2, 3)))
    with pytest.raises(IndexError):
        mlp.get_biases(params=params, layer=2)


def test_output_port_and_batch_output_match_the_forward_pass_by_hand():
    mlp = MultilayerPerceptron([2, 3, 2], kTanh)
    ctx = _random(mlp)
    params = mlp.get_parameters(ctx)
    assert np.all(np.abs(params[:9]) <= np.sqrt(3.0 / 2)) and np.any(params != 0.0)
    x = np.array([0.3, -1.2])
    W0, b0 = mlp.get_weights(ctx, 0), mlp.get_biases(ctx, 0)
    W1, b1 = mlp.get_weights(ctx, 1), mlp.get_biases(ctx, 1)
    expected = W1 @ np.tanh(W0 @ x + b0) + b1
    mlp.get_input_port().fix_value(ctx, x)
    np.testing.assert_allclose(mlp.get_output_port().eval(ctx), expected, rtol=1e-14)
    X = np.column_stack([x, 2 * x, -x])
    Y = np.asfortranarray(np.zeros((2, 3)))
    mlp.batch_output(ctx, X, Y)
    np.testing.assert_allclose(Y[:, 0], expected, rtol=1e-14)
    np.testing.assert_array_equal(mlp.batch_output(ctx, X), Y)


def test_backpropagation_matches_finite_differences():
    mlp = MultilayerPerceptron([2, 4, 3, 2], [kTanh, kReLU, kIdentity])
    ctx = _random(mlp, seed=11)
    X = np.array([[0.1, 0.5, -0.7], [1.0, -0.3, 0.2]])
    Y_d = np.array([[0.2, 0.0, 1.0], [-0.5, 0.3, 0.1]])
    grad = np.zeros(mlp.num_parameters())
    loss = mlp.backpropagation_mean_squared_error(ctx, X, Y_d, grad)
    params = mlp.get_parameters(ctx).copy()

    def mse(p):
        mlp.set_parameters(ctx, p)
        return float(np.sum((mlp.batch_output(ctx, X) - Y_d) ** 2) / 3)

    assert loss == pytest.approx(mse(params), rel=1e-14)
    h = 1e-6
    numeric = np.array([(mse(params + h * e) - mse(params - h * e)) / (2 * h)
                        for e in np.eye(params.size)])
    np.testing.assert_allclose(grad, numeric, atol=1e-7)


def test_sin_cos_inputs_and_input_gradient():
    mlp = MultilayerPerceptron([True, False], [4, 1], [kTanh, kIdentity])
    assert mlp.layers() == [3, 4, 1] and mlp.get_input_port().size() == 2
    ctx = _random(mlp, seed=2)
    X = np.array([[0.4, -2.0], [1.5, 0.25]])
    Y = np.zeros((1, 2))
    dYdX = np.zeros((2, 2))
    mlp.batch_output(ctx, X, Y, dYdX)
    h = 1e-6
    for k in range(2):
        e = np.zeros((2, 1))
        e[k] = h
        numeric = (mlp.batch_output(ctx, X + e) - mlp.batch_output(ctx, X - e)) / (2 * h)
        np.testing.assert_allclose(dYdX[k], numeric[0], atol=1e-8)
    # periodic in the sin/cos input
    shifted = X + np.array([[2 * np.pi], [0.0]])
    np.testing.assert_allclose(mlp.batch_output(ctx, shifted), Y, atol=1e-12)
    with pytest.raises(ValueError):
        MultilayerPerceptron([2, 2, 2], kTanh).batch_output(
            MultilayerPerceptron([2, 2, 2], kTanh).create_default_context(), X, dYdX=dYdX)
