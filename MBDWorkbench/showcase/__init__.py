"""The showcase mechanism: a humanoid robot's 2-DoF parallel ankle (closed-form kinematics
and the multibody model built from the same geometry)."""
