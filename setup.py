"""The build's one optional step: ``LLMAPP_MYPYC=1`` compiles the streaming reader.

``LLMAPP_MYPYC=1 pip install --no-build-isolation .`` (mypy in the building environment)
compiles ``llmapp/streaming/_arguments.py`` with mypyc into an extension module beside
it, which Python imports in its place: the same reader, answering alike, at about half
the cost a piece (benchmarks/README.md, section 10, "Fourth round"). Without it, the
package is pure Python, as every other build of it is.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup

COMPILED = ["src/llmapp/streaming/_arguments.py"]

# The metadata steps (pip runs ``dist_info`` or ``egg_info`` before the build) do not
# need the extension: compiling there too would double the build's time.
METADATA_ONLY = {"dist_info", "egg_info"}.intersection(sys.argv)

extensions: list[Any] = []
if os.environ.get("LLMAPP_MYPYC") == "1" and not METADATA_ONLY:
    from mypyc.build import mypycify

    extensions = mypycify(COMPILED, opt_level="3")

setup(ext_modules=extensions)
