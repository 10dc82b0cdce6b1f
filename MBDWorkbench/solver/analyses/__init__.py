"""Mechanism analyses on a Model: mobility and redundancy, assembly, kinematics,
inverse dynamics and statics (no time integration)."""
