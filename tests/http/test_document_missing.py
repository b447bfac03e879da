"""A document named by a file that is not there is reported as a missing file."""

from __future__ import annotations

from pathlib import Path

import pytest

from llmapp.http import DocumentError, application


@pytest.mark.parametrize("name", ["openapi.yaml", "specs/petstore.JSON", "api.yml"])
def test_a_missing_file_is_named_as_missing(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DocumentError, match=r"no such file") as raised:
        application(name)
    assert str(raised.value).startswith(name)
    with pytest.raises(DocumentError, match=r"no such file"):
        application(f"  {name}\n")


def test_one_line_document_text_is_still_read():
    text = '{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {}}'
    assert application(text).functions == []
    with pytest.raises(DocumentError, match="is not an object"):
        application("just some words")
