"""A failed validation -> text that shows the model its own mistakes."""

from llmapp.explain._text import feedback

__all__ = ["feedback"]
