"""Drake's MultibodyPlant.RemoveJoint / RemoveJointActuator (before finalize): indices of
the other elements stay, a removed index is no longer a joint (actuator), new elements
take the next unused index, names can be reused, and u / the actuation matrix follow the
remaining actuators in index order (the cases of Drake's multibody_plant_test remodeling
tests)."""

import numpy as np
import pytest

from merganser.multibody import (
    JointActuatorIndex, JointIndex, LinearSpringDamper, MultibodyPlant, PrismaticJoint,
    RevoluteJoint, SpatialInertia, WeldJoint,
)


def _chain(time_step=0.0):
    """world -joint0- body0 -joint1- body1 -joint2- body2, revolute about z, actuated."""
    plant = MultibodyPlant(time_step)
    inertia = SpatialInertia.solid_box_with_density(1000.0, 0.1, 0.2, 0.3)
    bodies = [plant.add_rigid_body(f"body{i}", M_BBo_B=inertia) for i in range(3)]
    joints, parent = [], plant.world_body()
    for i, body in enumerate(bodies):
        joints.append(plant.add_joint(RevoluteJoint(
            f"joint{i}", parent.body_frame(), body.body_frame(), [0.0, 0.0, 1.0])))
        parent = body
    actuators = [plant.add_joint_actuator(f"actuator{i}", j) for i, j in enumerate(joints)]
    return plant, bodies, joints, actuators


def test_remove_joint_keeps_the_other_indices_and_the_next_index_is_new():
    plant, bodies, joints, actuators = _chain()
    plant.remove_joint_actuator(actuators[1])
    plant.remove_joint(joint=joints[1])
    assert plant.num_joints() == 2
    assert [plant.has_joint(joint_index=JointIndex(i)) for i in range(3)] == [True, False, True]
    assert not plant.has_joint_named("joint1") and plant.has_joint_named("joint2")
    assert plant.get_joint_indices() == [JointIndex(0), JointIndex(2)]
    assert plant.get_joint(JointIndex(2)) is joints[2]
    plant.finalize()
    # body1 is free now: its floating joint takes the next index, 3
    assert plant.num_joints() == 3
    assert plant.get_joint_indices() == [JointIndex(0), JointIndex(2), JointIndex(3)]
    floating = plant.get_joint(JointIndex(3))
    assert floating.child_body() is bodies[1] and floating.num_velocities() == 6
    assert plant.num_positions() == 1 + 7 + 1 and plant.num_velocities() == 8
    # the reaction forces are listed by joint ordinal (Drake): one per remaining joint
    context = plant.create_default_context()
    forces = plant.get_reaction_forces_output_port().eval(context)
    assert len(forces) == 3


def test_get_joint_of_a_removed_index_raises_naming_the_index():
    plant, _, joints, actuators = _chain()
    plant.remove_joint_actuator(actuators[1])
    plant.remove_joint(joints[1])
    with pytest.raises(RuntimeError, match=r"get_joint: the joint with index 1 was removed; "
                                           r"valid indices: \[0, 2\]"):
        plant.get_joint(JointIndex(1))
    with pytest.raises(RuntimeError, match=r"get_joint_actuator: the actuator with index 1 was "
                                           r"removed"):
        plant.get_joint_actuator(JointActuatorIndex(1))
    with pytest.raises(RuntimeError, match="does not belong to this plant"):
        plant.remove_joint(joints[1])                # already removed


def test_remove_and_replace_a_joint_reuses_its_name_with_a_new_index():
    plant, bodies, joints, actuators = _chain()
    plant.remove_joint_actuator(actuators[1])
    plant.remove_joint(joints[1])
    for i in range(1, 5):
        joint = plant.add_joint(RevoluteJoint("joint1", bodies[0].body_frame(),
                                              bodies[1].body_frame(), [0.0, 0.0, 1.0]))
        assert joint.index() == JointIndex(2 + i)
        plant.remove_joint(joint)
    weld = plant.add_joint(WeldJoint("joint1", bodies[0].body_frame(), bodies[1].body_frame()))
    assert weld.index() == JointIndex(7)
    assert plant.get_joint_by_name("joint1") is weld
    assert plant.get_joint_indices() == [JointIndex(0), JointIndex(2), JointIndex(7)]
    plant.finalize()
    assert plant.num_joints() == 3 and plant.num_velocities() == 2


def test_remove_joint_refuses_dependent_actuators_force_elements_and_constraints():
    plant, bodies, joints, actuators = _chain()
    with pytest.raises(RuntimeError, match=r"remove_joint: joint 'joint1' \(index 1\) has "
                                           r"dependent elements.*JointActuator\(name: actuator1, "
                                           r"index: 1\)"):
        plant.remove_joint(joints[1])
    plant.remove_joint_actuator(actuators[1])
    plant.add_force_element(LinearSpringDamper(bodies[0], [0, 0, 0], bodies[2], [0, 0, 0],
                                               1.0, 1.0, 0.0))
    with pytest.raises(RuntimeError, match="remove_joint: the plant has 1 user-added force "
                                           "element"):
        plant.remove_joint(joints[1])
    other, _, joints2, actuators2 = _chain()
    other.add_coupler_constraint(joints2[0], joints2[2], 1.0)
    other.remove_joint_actuator(actuators2[1])
    with pytest.raises(RuntimeError, match="remove_joint: the plant has 1 user-added "
                                           "constraint"):
        other.remove_joint(joints2[1])


def test_removal_after_finalize_is_refused():
    plant, _, joints, actuators = _chain()
    plant.finalize()
    with pytest.raises(RuntimeError, match=r"remove_joint_actuator\(\) after finalize\(\)"):
        plant.remove_joint_actuator(actuators[0])
    with pytest.raises(RuntimeError, match=r"remove_joint\(\) after finalize\(\)"):
        plant.remove_joint(joints[0])


def test_removed_actuator_leaves_u_and_the_actuation_matrix_in_index_order():
    plant, _, joints, actuators = _chain()
    actuator_index = actuators[1].index()
    plant.remove_joint_actuator(actuator=actuators[1])
    assert not plant.has_joint_actuator(actuator_index=actuator_index)
    assert not plant.has_joint_actuator_named("actuator1")
    plant.finalize()
    assert plant.num_actuators() == 2
    assert plant.get_joint_actuator_indices() == [JointActuatorIndex(0), JointActuatorIndex(2)]
    assert [plant.get_joint_actuator(a).input_start()
            for a in plant.get_joint_actuator_indices()] == [0, 1]
    np.testing.assert_array_equal(plant.make_actuation_matrix(),
                                  [[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])
    # Drake's AddJointActuationForcesContinuous case: u = (0.25, 0.5) -> tau = (0.25, 0, 0.5)
    context = plant.create_default_context()
    plant.get_actuation_input_port().fix_value(context, [0.25, 0.5])
    vdot = plant.eval_time_derivatives(context).get_vector().copy_to_vector()[3:]
    np.testing.assert_allclose(plant.calc_mass_matrix(context) @ vdot, [0.25, 0.0, 0.5],
                               atol=1e-12)
    # Drake's MakeActuatorSelectorMatrix case: user order (actuator2, actuator0)
    S = plant.make_actuator_selector_matrix(
        [plant.get_joint_actuator_by_name("actuator2").index(),
         plant.get_joint_actuator_by_name("actuator0").index()])
    np.testing.assert_array_equal(S, [[0.0, 1.0], [1.0, 0.0]])


def test_pydrake_joint_remodeling_case():
    # bindings/pydrake/multibody/test/plant_test.py, test_joint_remodeling
    plant = MultibodyPlant(0.0)
    instance = plant.add_model_instance("instance")
    body = plant.add_rigid_body(name="body", model_instance=instance)
    joint = plant.add_joint(PrismaticJoint("joint", plant.world_frame(), body.body_frame(),
                                           [0.0, 0.0, 1.0]))
    actuator = plant.add_joint_actuator("actuator", joint, 1.0)
    assert plant.get_joint_actuator_indices() == [actuator.index()]
    plant.remove_joint_actuator(actuator=actuator)
    joint_index = joint.index()
    assert plant.get_joint_indices() == [joint_index]
    plant.remove_joint(joint=joint)
    assert not plant.has_joint(joint_index=joint_index)
    plant.finalize()
    assert plant.get_joint_indices() == [JointIndex(1)]
    assert plant.get_joint_actuator_indices() == []
