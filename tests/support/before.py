"""A module of llmapp as it was at an earlier commit, loaded beside today's, for differentials.

``load(commit, "llmapp/explain/_text.py")`` reads the file from git and runs it as a module
of its own name (``before_<commit>_<path>``); its imports are today's llmapp. The test that
uses it skips, with its reason, where git or the commit is not there, or where a name the
module imports has left today's llmapp.
"""

from __future__ import annotations

import subprocess
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load(commit: str, path: str) -> types.ModuleType:
    """The module at ``src/<path>`` in ``commit``; skips the test when it cannot be read."""
    try:
        shown = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{commit}:src/{path}"],
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        pytest.skip("git is not installed: the earlier module cannot be read")
    if shown.returncode != 0:
        pytest.skip(f"src/{path} at {commit} is not in this clone's history")
    name = f"before_{commit}_" + path.removesuffix(".py").replace("/", "_")
    module = types.ModuleType(name)
    module.__file__ = f"<{commit}:{path}>"
    try:
        exec(compile(shown.stdout, module.__file__, "exec"), module.__dict__)
    except ImportError as error:  # a name it imports from today's llmapp has moved
        pytest.skip(f"src/{path} at {commit} no longer imports against this tree: {error}")
    return module
