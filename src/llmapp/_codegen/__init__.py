"""Generated Python source: the emitter, registering and compiling it (``source``), code
objects compacted as they are compiled (``compact``), and the one way generated code,
``$defs`` entries and functions are named (``fresh``)."""
