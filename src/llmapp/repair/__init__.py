"""Lenient reading of the model's argument text and schema-driven repair of its data."""
