"""A failed validation -> text that shows the model its own mistakes."""
