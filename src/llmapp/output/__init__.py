"""Structured output: one Python type as the model's whole answer (``structured_output``).

A sink beside ``vendors``: it reads the type model, schema, validator, repair, feedback and
converter stages as a tool call does, and each vendor's strict form of a schema.
"""

from llmapp.output._structured import StructuredOutput, structured_output

__all__ = ["StructuredOutput", "structured_output"]
