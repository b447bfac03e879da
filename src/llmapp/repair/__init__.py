"""Lenient reading of the model's argument text and schema-driven repair of its data."""

from llmapp.repair._coerce import coerce
from llmapp.repair._parse import Parsed, parse

__all__ = ["Parsed", "coerce", "parse"]
