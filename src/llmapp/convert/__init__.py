"""Validated JSON -> the method's Python types, and Python results -> JSON-ready data."""
