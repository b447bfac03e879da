"""Approval that a tag implies is stated: in the export, and in the log at build."""

from __future__ import annotations

import logging

from llmapp import application, controls


class Files:
    def wipe(self, path: str) -> str:
        """Delete a file.

        @tag destructive
        """
        return path

    def read(self, path: str) -> str:
        """Read a file."""
        return path

    @controls(approval=lambda arguments, context: arguments["path"].startswith("/etc"))
    def touch(self, path: str) -> str:
        """Touch a file."""
        return path


def test_the_export_states_approval(caplog):
    with caplog.at_level(logging.INFO, logger="llmapp.controls"):
        exported = {each["name"]: each for each in application(Files).to_list()}
    assert exported["wipe"]["approval"] == "always"
    assert exported["touch"]["approval"] == "when its predicate says"
    assert "approval" not in exported["read"]
    said = [r.getMessage() for r in caplog.records if r.name == "llmapp.controls"]
    assert said == [
        "Files.wipe: @tag destructive: each call waits for a human's approval "
        "(execute(..., approved=True); @controls(approval=False) lifts it)"
    ]


def test_a_lifted_approval_is_neither_exported_nor_said(caplog):
    class Lifted(Files):
        @controls(approval=False)
        def wipe(self, path: str) -> str:
            """Delete a file.

            @tag destructive
            """
            return path

    with caplog.at_level(logging.INFO, logger="llmapp.controls"):
        exported = {each["name"]: each for each in application(Lifted).to_list()}
    assert "approval" not in exported["wipe"]
    assert not [r for r in caplog.records if "Lifted.wipe" in r.getMessage()]
