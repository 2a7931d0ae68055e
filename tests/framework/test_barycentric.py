"""BarycentricMesh interpolation (Drake's Kuhn-triangulated mesh) and
BarycentricMeshSystem."""

import numpy as np
import pytest

from merganser.framework import BarycentricMesh, BarycentricMeshSystem


def test_mesh_points_are_indexed_first_dimension_fastest():
    mesh = BarycentricMesh([{0.0, 1.0, 2.0}, {-1.0, 1.0}])
    assert mesh.get_num_mesh_points() == 6 and mesh.get_num_interpolants() == 3
    np.testing.assert_array_equal(mesh.get_mesh_point(1), [1.0, -1.0])
    np.testing.assert_array_equal(mesh.get_mesh_point(3), [0.0, 1.0])
    assert mesh.get_all_mesh_points().shape == (2, 6)


def test_interpolation_is_exact_for_affine_functions_and_weights_are_convex():
    mesh = BarycentricMesh([np.linspace(0.0, 1.0, 4), np.linspace(-2.0, 2.0, 5),
                            {0.0, 0.5, 3.0}])
    values = mesh.mesh_values_from(lambda x: [3.0 * x[0] - x[1] + 0.5 * x[2] + 1.0, x[1]])
    rng = np.random.default_rng(0)
    for _ in range(50):
        x = rng.uniform([0.0, -2.0, 0.0], [1.0, 2.0, 3.0])
        indices, weights = mesh.eval_barycentric_weights(x)
        assert weights.min() >= -1e-15 and weights.sum() == pytest.approx(1.0)
        np.testing.assert_allclose(mesh.eval(values, x),
                                   [3.0 * x[0] - x[1] + 0.5 * x[2] + 1.0, x[1]], atol=1e-12)


def test_points_outside_are_projected_onto_the_grid():
    mesh = BarycentricMesh([{0.0, 1.0}])
    values = np.array([[10.0, 20.0]])
    assert mesh.eval(values, [-5.0])[0] == 10.0 and mesh.eval(values, [7.0])[0] == 20.0
    assert mesh.eval(values, [0.25])[0] == pytest.approx(12.5)
    with pytest.raises(ValueError):
        mesh.eval(values, [0.0, 1.0])


def test_barycentric_mesh_system_outputs_the_interpolant():
    mesh = BarycentricMesh([{0.0, 1.0}, {0.0, 1.0}])
    system = BarycentricMeshSystem(mesh, [[0.0, 10.0, 1.0, 11.0]])
    ctx = system.create_default_context()
    system.get_input_port().fix_value(ctx, [0.5, 0.25])
    # weights: 1 - 0.5 at (0,0), 0.5 - 0.25 at (1,0), 0.25 at (1,1)
    assert system.get_output_port().eval(ctx)[0] == pytest.approx(0.25 * 10.0 + 0.25 * 11.0)
    with pytest.raises(ValueError):
        BarycentricMeshSystem(mesh, [[0.0, 1.0]])


def test_weights_come_in_drakes_order_and_singleton_dimensions_add_no_vertex():
    mesh = BarycentricMesh([{0, 1}, {0, 1}])
    indices, weights = mesh.eval_barycentric_weights((0.0, 1.0))
    np.testing.assert_array_equal(indices, [2, 2, 0])     # Drake's documented example
    np.testing.assert_allclose(weights, [1.0, 0.0, 0.0])
    indices, weights = mesh.eval_barycentric_weights((0.25, 0.5))
    # from the upper corner (1, 1) = 3 down the dimension of smaller position first:
    # (0, 1) = 2, then (0, 0); 0.25 (1, 1) + 0.25 (0, 1) + 0.5 (0, 0) = (0.25, 0.5)
    np.testing.assert_array_equal(indices, [3, 2, 0])
    np.testing.assert_allclose(weights, [0.25, 0.25, 0.5])
    flat = BarycentricMesh([{0.0, 2.0}, {5.0}])
    assert flat.get_num_interpolants() == 2
    indices, weights = flat.eval_barycentric_weights((0.5, 7.0))
    np.testing.assert_array_equal(indices, [1, 0])
    np.testing.assert_allclose(weights, [0.25, 0.75])
