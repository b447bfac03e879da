"""A failed validation -> text that shows the model its own mistakes."""

from llmapp.feedback._text import feedback

__all__ = ["feedback"]
