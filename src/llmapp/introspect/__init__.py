"""Stage 1: Python classes and types -> method specs and the neutral type model."""
