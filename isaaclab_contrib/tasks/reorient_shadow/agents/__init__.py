"""Learner configurations of the Shadow reorientation tasks."""
