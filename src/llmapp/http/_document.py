"""Reading an OpenAPI document: a dict, a path or text, JSON or YAML, other files bundled in.

References to other files (``Pet.json``, ``../common/Error.yaml#/Error``) are read
relative to the file that holds them, when the document was given as a path, and
copied into the document's own schema section (``definitions`` in Swagger 2.0,
``components/schemas`` otherwise) under a name of their own; each reference then
points there. A target is bundled once however often it is referenced, and before
its own references are followed, so cycles between files end. A reference to a file
that cannot be read is left as it is: the operations that use it report it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from llmapp._errors import LlmappError
from llmapp._fresh import fresh_name
from llmapp.jsonschema import MISSING, escape_token, is_mapping, resolve_pointer

__all__ = ["DocumentError", "load"]


class DocumentError(LlmappError):
    """The document cannot be read at all (not JSON or YAML, not OpenAPI or Swagger)."""


def load(source: Mapping[str, Any] | str | Path) -> dict[str, Any]:
    """The document as a dict, with references to other files bundled in.

    A document given as a dict is not copied: nothing later changes it.

    Args:
        source: the document itself, a path to a ``.json``/``.yaml`` file, or its text.

    Raises:
        DocumentError: the text is neither JSON nor YAML, or is not an object.
    """
    if is_mapping(source):
        return dict(source)
    if isinstance(source, Path) or (
        isinstance(source, str) and "\n" not in source and _is_file(source)
    ):
        path = Path(source).resolve()
        document = _read(path.read_text(encoding="utf-8"), str(path))
        return _Bundler(path, document).run()
    if isinstance(source, str):
        return _read(source, "the document text")
    raise DocumentError(f"expected a dict, a path or text, not {type(source).__name__}")


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def _read(text: str, where: str) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except ValueError:
        document = _yaml(text, where)
    if not isinstance(document, dict):
        raise DocumentError(f"{where} is not an object")
    return document


def _yaml(text: str, where: str) -> Any:
    try:
        import yaml  # type: ignore[import-untyped,unused-ignore]
    except ImportError as missing:
        raise DocumentError(
            f"{where} is not JSON, and reading YAML needs PyYAML: pip install 'llmapp[http]'"
        ) from missing
    try:
        # The C loader when built: a large YAML document reads several times faster.
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError as error:
        raise DocumentError(f"{where} is neither JSON nor YAML: {error}") from error


class _Bundler:
    """Copies the targets of references to other files into the root document."""

    def __init__(self, path: Path, document: dict[str, Any]) -> None:
        self.root = document
        self.root_path = path
        self.files: dict[Path, Any] = {path: document}
        self.local: dict[tuple[Path, str], str] = {}  # (file, pointer) -> local reference
        swagger = "swagger" in document
        self.section_tokens = ("definitions",) if swagger else ("components", "schemas")

    def run(self) -> dict[str, Any]:
        self.walk(self.root, self.root_path)
        return self.root

    def walk(self, node: Any, file: Path) -> None:
        if isinstance(node, list):
            for item in list(node):
                self.walk(item, file)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                bundled = self.reference(ref, file)
                if bundled is not None:
                    node["$ref"] = bundled
            for key, value in list(node.items()):  # bundling may add to the root
                if key != "$ref":
                    self.walk(value, file)

    def reference(self, ref: str, file: Path) -> str | None:
        """The local reference that replaces ``ref`` written in ``file`` (None: unchanged)."""
        location, _, fragment = ref.partition("#")
        if not location:
            if file == self.root_path:
                return None
            location = file.name  # a local reference inside a bundled file
        if ":" in location.split("/", 1)[0]:
            return None  # a URL: never fetched
        target_file = (file.parent / location).resolve()
        key = (target_file, fragment)
        if key in self.local:
            return self.local[key]
        document = self.file(target_file)
        if document is None:
            return None
        target = resolve_pointer(document, fragment, fragment=True) if fragment else document
        if target is MISSING:
            return None
        if target_file == self.root_path:
            self.local[key] = "#" + fragment
            return self.local[key]
        name = self.fresh(fragment.rpartition("/")[2] or target_file.stem)
        section = self.section()
        local = "#/" + "/".join(escape_token(t) for t in (*self.section_tokens, name))
        self.local[key] = local
        copied = copy.deepcopy(target)
        section[name] = copied
        self.walk(copied, target_file)
        return local

    def file(self, path: Path) -> Any:
        if path not in self.files:
            try:
                self.files[path] = _read(path.read_text(encoding="utf-8"), str(path))
            except (OSError, DocumentError):
                self.files[path] = None
        return self.files[path]

    def section(self) -> dict[str, Any]:
        node: dict[str, Any] = self.root
        for token in self.section_tokens:
            node = node.setdefault(token, {})
        return node

    def fresh(self, base: str) -> str:
        return fresh_name(base, self.section())
