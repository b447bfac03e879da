"""Reading an OpenAPI document: a dict, a path or text, JSON or YAML, other files bundled in.

References to other files (``Pet.json``, ``../common/Error.yaml#/Error``) are read
relative to the file that holds them, when the document was given as a path, and
copied into the document's own schema section (``definitions`` in Swagger 2.0,
``components/schemas`` otherwise) under a name of their own; each reference then
points there. A target is bundled once however often it is referenced and however its
reference is spelled (``lib.json#/Pet``, ``./lib.json#/%50et``: the path resolved, the
fragment percent-decoded and escaped one way), and before its own references are
followed, so cycles between files end.

A document names files, so what it may read is confined: only regular files inside the
document's own folder (or the folders the caller names as ``roots``), symbolic links
resolved first, and at most ``MAX_DOCUMENT_BYTES`` for the document and all the files
it references together, the bytes of what it copies from them counted in too, and at
most ``MAX_BUNDLED_TARGETS`` targets. URLs are never fetched. A reference that is
refused, or to a file that cannot be read, is left as it is, and the reason kept: the
operations that use it are errors that say why (``refused``).

YAML is read with YAML 1.2 meaning and bounded aliases (``_yaml``); JSON too deeply
nested for ``json`` is read by the same iterative reader (JSON is YAML 1.2).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from llmapp._codegen.fresh import fresh_name
from llmapp._errors import DocumentError
from llmapp._limits import MAX_BUNDLED_TARGETS, MAX_DOCUMENT_BYTES
from llmapp.jsonschema import (
    MISSING,
    copy_json,
    escape_token,
    is_mapping,
    normal_fragment,
    resolve_pointer,
    unescape_token,
)

__all__ = [
    "MAX_BUNDLED_TARGETS",
    "MAX_DOCUMENT_BYTES",
    "DocumentError",
    "Loaded",
    "load",
    "load_document",
]


@dataclass
class Loaded:
    """A document read, and why each reference to another file that was not read was not.

    Attributes:
        document: the document, other files bundled in.
        refused: each ``$ref`` (as written) that was not followed -> the reason.
    """

    document: dict[str, Any]
    refused: dict[str, str] = field(default_factory=dict)


def load(
    source: Mapping[str, Any] | str | Path, *, roots: Iterable[str | Path] | None = None
) -> dict[str, Any]:
    """The document as a dict, with references to other files bundled in.

    A document given as a dict is not copied: nothing later changes it.

    Args:
        source: the document itself, a path to a ``.json``/``.yaml`` file, or its text.
        roots: the folders other files may be read from (default: the document's own).

    Raises:
        DocumentError: the text is neither JSON nor YAML, or is not an object; the file
            is missing (a one-line text ending in ``.json``/``.yaml``/``.yml`` is a path),
            is not a regular file or is larger than ``MAX_DOCUMENT_BYTES``.
    """
    return load_document(source, roots=roots).document


def load_document(
    source: Mapping[str, Any] | str | Path, *, roots: Iterable[str | Path] | None = None
) -> Loaded:
    """``load``, with the reasons references were not followed."""
    if is_mapping(source):
        return Loaded(dict(source))
    if isinstance(source, Path) or (
        isinstance(source, str) and "\n" not in source and _is_file(source)
    ):
        path = Path(source).resolve()
        allowed = tuple(Path(r).resolve() for r in roots) if roots is not None else (path.parent,)
        files = _Files(allowed)
        try:
            text = files.read(path)
        except _Refused as refused:
            raise DocumentError(f"{path}: {refused}") from None
        bundler = _Bundler(path, _read(text, str(path)), files)
        return Loaded(bundler.run(), bundler.refused)
    if isinstance(source, str) and _names_a_file(source):
        raise DocumentError(f"{source}: no such file (a path was given, not a document's text)")
    if isinstance(source, str):
        return Loaded(_read(source, "the document text"))
    raise DocumentError(f"expected a dict, a path or text, not {type(source).__name__}")


def _names_a_file(text: str) -> bool:
    """Whether one line of text is a document's file name rather than the document."""
    line = text.strip()
    return "\n" not in line and not line.startswith("{") and line.lower().endswith(_SUFFIXES)


_SUFFIXES = (".json", ".yaml", ".yml")


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


class _Refused(Exception):
    """A file that is not read, and why."""


class _Files:
    """Reads the files of one document: inside ``roots``, regular, within one byte budget."""

    def __init__(self, roots: tuple[Path, ...]) -> None:
        self.roots = roots
        self.left = MAX_DOCUMENT_BYTES

    def read(self, path: Path) -> str:
        if not any(path == root or path.is_relative_to(root) for root in self.roots):
            raise _Refused("outside the folders references may be read from")
        try:
            # Non-blocking: opening a FIFO must not wait for a writer; the type is
            # checked on the opened file itself, so nothing can be swapped in between.
            handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError as error:
            raise _Refused(f"cannot be opened ({error.strerror})") from None
        try:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                raise _Refused("not a regular file")
            data = os.read(handle, self.left + 1)
        finally:
            os.close(handle)
        if len(data) > self.left:
            raise _Refused(
                f"the document and its files together exceed {MAX_DOCUMENT_BYTES:,} bytes"
            )
        self.left -= len(data)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise _Refused("not UTF-8 text") from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _read(text: str, where: str) -> dict[str, Any]:
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        document = _yaml(text, where)
    if not isinstance(document, dict):
        raise DocumentError(f"{where} is not an object")
    return document


def _yaml(text: str, where: str) -> Any:
    try:
        import yaml  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
    except ImportError as missing:
        raise DocumentError(
            f"{where} is not JSON, and reading YAML needs PyYAML: pip install 'llmapp[http]'"
        ) from missing
    from llmapp.http._yaml import read_yaml

    try:
        return read_yaml(text, where)
    except ValueError as error:
        raise DocumentError(str(error)) from None


class _Bundler:
    """Copies the targets of references to other files into the root document."""

    def __init__(self, path: Path, document: dict[str, Any], files: _Files) -> None:
        self.root = document
        self.root_path = path
        self.reader = files
        self.files: dict[Path, Any] = {path: document}
        self.local: dict[tuple[Path, str], str] = {}  # (file, pointer) -> local reference
        self.refused: dict[str, str] = {}
        self.reasons: dict[Path, str] = {}  # file not read -> why
        swagger = "swagger" in document
        self.section_tokens = ("definitions",) if swagger else ("components", "schemas")

    def run(self) -> dict[str, Any]:
        self.walk(self.root, self.root_path)
        return self.root

    def walk(self, start: Any, file: Path) -> None:
        """Bundle every reference under ``start``, written in ``file``, in document order:
        a target copied in is walked before the reference's siblings. A worklist, so a
        deeply nested document costs no stack."""
        pending: list[tuple[Any, Path]] = [(start, file)]
        while pending:
            node, where = pending.pop()
            if isinstance(node, list):
                pending.extend((item, where) for item in reversed(node))
            elif isinstance(node, dict):
                copied = None
                ref = node.get("$ref")
                if isinstance(ref, str):
                    bundled, copied = self.reference(ref, where)
                    if bundled is not None:
                        node["$ref"] = bundled
                values = [value for key, value in node.items() if key != "$ref"]
                pending.extend((value, where) for value in reversed(values))
                if copied is not None:
                    pending.append(copied)

    def reference(self, ref: str, file: Path) -> tuple[str | None, tuple[Any, Path] | None]:
        """The local reference that replaces ``ref`` written in ``file`` (None: unchanged),
        and the target newly copied into the root with its file, to walk next."""
        location, _, fragment = ref.partition("#")
        if not location:
            if file == self.root_path:
                return None, None
            location = file.name  # a local reference inside a bundled file
        if ":" in location.split("/", 1)[0]:
            self.refused[ref] = "a URL: references are never fetched"
            return None, None
        # One key per target however the reference spells it: the path as the file it
        # names, the fragment percent-decoded and escaped one way.
        target_file = (file.parent / unquote(location)).resolve()
        fragment = normal_fragment(fragment)
        key = (target_file, fragment)
        if key in self.local:
            return self.local[key], None
        document = self.file(target_file, ref)
        if document is None:
            return None, None
        target = resolve_pointer(document, fragment) if fragment.startswith("/") else MISSING
        target = document if not fragment else target
        if target is MISSING:
            return None, None
        if target_file == self.root_path:
            self.local[key] = "#" + fragment
            return self.local[key], None
        copied = self.brought_in(target, ref)
        if copied is None:
            return None, None
        name = self.fresh(unescape_token(fragment.rpartition("/")[2]) or target_file.stem)
        section = self.section()
        local = "#/" + "/".join(escape_token(t) for t in (*self.section_tokens, name))
        self.local[key] = local
        section[name] = copied
        return local, (copied, target_file)

    def brought_in(self, target: Any, ref: str) -> Any:
        """A copy of ``target`` for the root document, or None (the reason kept) when it
        would pass the bounds: the bytes it copies count against what the document may
        read (``MAX_DOCUMENT_BYTES``, with the files read), and at most
        ``MAX_BUNDLED_TARGETS`` targets are copied."""
        if len(self.local) >= MAX_BUNDLED_TARGETS:
            self.refused[ref] = (
                f"the document refers to more than {MAX_BUNDLED_TARGETS:,} targets in other files"
            )
            return None
        try:
            size = len(json.dumps(target, ensure_ascii=False, separators=(",", ":")).encode())
        except (TypeError, ValueError, RecursionError):
            size = 0  # a target no JSON writes: it is refused where it is used
        if size > self.reader.left:
            self.refused[ref] = (
                f"the document, its files and what it copies of them together exceed "
                f"{MAX_DOCUMENT_BYTES:,} bytes"
            )
            return None
        self.reader.left -= size
        return copy_json(target)

    def file(self, path: Path, ref: str) -> Any:
        if path not in self.files:
            try:
                self.files[path] = _read(self.reader.read(path), str(path))
            except (_Refused, DocumentError) as error:
                self.files[path] = None
                self.reasons[path] = str(error)
        if self.files[path] is None:
            self.refused[ref] = self.reasons[path]
        return self.files[path]

    def section(self) -> dict[str, Any]:
        node: dict[str, Any] = self.root
        for token in self.section_tokens:
            node = node.setdefault(token, {})
        return node

    def fresh(self, base: str) -> str:
        return fresh_name(base, self.section())
