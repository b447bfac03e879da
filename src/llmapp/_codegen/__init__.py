"""Generated Python source: the emitter, registering and compiling it (``source``), and
the one way generated code, ``$defs`` entries and functions are named (``fresh``)."""
