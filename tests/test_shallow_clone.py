"""Tests that compare against an earlier commit say so, and how to mend it, in a shallow clone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_a_shallow_clone_fails_with_how_to_fetch_the_history(tmp_path: Path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "--quiet", "--depth", "1", f"file://{ROOT}", str(clone)],
        check=True,
        capture_output=True,
    )
    # This tree's helper, in the clone (so it looks at the clone's history).
    shutil.copy(ROOT / "tests/support/before.py", clone / "tests/support/before.py")
    probe = tmp_path / "test_probe.py"
    probe.write_text(
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('before', {str(clone / 'tests/support/before.py')!r})\n"
        "before = importlib.util.module_from_spec(spec); spec.loader.exec_module(before)\n"
        "def test_needs_history():\n    before.require('be8e0e1')\n"
    )
    # The probe needs pytest alone: the installed plugins (the SDKs' among them) would
    # only slow its start.
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(probe)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
        check=False,
    )
    assert completed.returncode == 1, completed.stdout
    assert "git fetch --unshallow" in completed.stdout
