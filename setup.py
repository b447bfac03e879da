"""The build's one optional step: ``LLMAPP_MYPYC=1`` compiles the streaming reader.

``LLMAPP_MYPYC=1 pip install --no-build-isolation .`` (mypy in the building environment)
compiles ``llmapp/streaming/_arguments.py`` with mypyc into an extension module beside
it, which Python imports in its place: the same reader, answering alike, at about half
the cost a piece (benchmarks/README.md, section 10, "Fourth round"). Without it, the
package is pure Python, as every other build of it is.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import setup

COMPILED = ["src/llmapp/streaming/_arguments.py"]

extensions: list[Any] = []
if os.environ.get("LLMAPP_MYPYC") == "1":
    from mypyc.build import mypycify

    extensions = mypycify(COMPILED, opt_level="3")

setup(ext_modules=extensions)
