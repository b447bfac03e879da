"""Helpers the tests share (corpus readers, value generators); no tests live here."""
