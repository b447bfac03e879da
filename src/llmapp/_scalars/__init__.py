"""Scalar types: the one table of Python types a JSON scalar becomes (``table``) and the
text of dates, times, durations and base64 it reads and writes (``iso8601``)."""
