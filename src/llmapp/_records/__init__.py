"""Frozen records: the in-house ``Record`` base (``record``) and ``quick_init`` for frozen
dataclasses built on every call (``frozen``)."""
