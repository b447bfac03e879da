"""What the ``llmapp`` command loads: ``MODULE:NAME`` and ``path/to/file.py:NAME`` targets.

A file imports as Python would run it: its folder goes on ``sys.path`` (so a sibling
module imports), or, when the folder is a package (it has ``__init__.py``), the package's
parent does and the file imports under its dotted name (so ``from .helper import x``
works). A file is loaded once, under the name other modules would import it by, so a
``--factory`` module that imports the class's file gets the same class, not a copy.

Every failure is a ``TargetError`` with one line a user can act on: a missing file, an
exception while importing (the file and line where it was raised), or a missing name (the
names the module has, the closest first).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

__all__ = ["TargetError", "find", "load_module", "where"]


class TargetError(Exception):
    """A target that cannot be loaded; the message is one line for the user."""


def load_module(location: str) -> ModuleType:
    """The module for ``location``: a ``.py`` file's path or a dotted module name."""
    if location.endswith(".py"):
        return _load_file(Path(location))
    if "" not in sys.path and str(Path.cwd()) not in sys.path:  # as ``python -m`` does
        sys.path.insert(0, str(Path.cwd()))
    try:
        return importlib.import_module(location)
    except ModuleNotFoundError as error:
        if error.name == location or location.startswith(f"{error.name}."):
            raise TargetError(f"no module named {error.name!r}") from None
        raise TargetError(where(error)) from None
    except Exception as error:
        raise TargetError(where(error)) from None


def find(module: ModuleType, name: str, kind: str, wanted: Callable[[object], bool]) -> object:
    """``module``'s attribute ``name`` (dotted for a nested one) when ``wanted(it)``.

    Args:
        module: Where to look.
        name: ``Class`` or ``Outer.Inner``.
        kind: What is looked for ("class", "callable"), for the message.
        wanted: Whether a found object is of that kind.

    Raises:
        TargetError: the name is absent or not of that kind; the message lists the names of
            that kind the module has, the closest to ``name`` first.
    """
    found: object = module
    for part in name.split("."):
        found = getattr(found, part, _ABSENT)
        if found is _ABSENT:
            break
    if found is not _ABSENT and wanted(found):
        return found
    candidates = _names(module, wanted)
    closest = difflib.get_close_matches(name, candidates, n=len(candidates), cutoff=0.0)
    where = _label(module)
    problem = f"{name!r} is not a {kind}" if found is not _ABSENT else f"no {kind} {name!r}"
    if not closest:
        raise TargetError(f"{where}: {problem}, and it has no {kind} at all")
    raise TargetError(f"{where}: {problem}; it has: {', '.join(closest)}")


_ABSENT = object()

_loaded: dict[Path, ModuleType] = {}
"""Files loaded so far, by resolved path: a file named twice (target and factory) runs once."""


def _load_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise TargetError(f"no such file: {path}")
    resolved = path.resolve()
    if resolved in _loaded:
        return _loaded[resolved]
    root, name = _import_name(resolved)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    existing = sys.modules.get(name)
    if existing is not None and _file_of(existing) == resolved:
        module = existing
    else:
        if existing is not None:  # the name is taken (a stdlib ``types.py``): keep both apart
            name = f"_llmapp_cli_{resolved.stem}"
        try:
            module = _exec_file(name, resolved)
        except TargetError:
            raise
        except Exception as error:
            raise TargetError(where(error)) from None
    _loaded[resolved] = module
    return module


def _import_name(path: Path) -> tuple[Path, str]:
    """The ``sys.path`` entry and module name Python would give ``path`` (``python -m``)."""
    parts = [path.stem] if path.stem != "__init__" else []
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        parts.insert(0, folder.name)
        folder = folder.parent
    return folder, ".".join(parts) or path.parent.name


def _exec_file(name: str, path: Path) -> ModuleType:
    package, _, _ = name.rpartition(".")
    if package:  # the file's package first, so its relative imports resolve
        importlib.import_module(package)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TargetError(f"cannot import {path}: not a Python source file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and forward references look the module up
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def where(error: BaseException) -> str:
    """``file:line: Type: message`` for the frame of the user's code that raised ``error``."""
    text = f"{type(error).__name__}: {error}"
    if isinstance(error, SyntaxError) and error.filename:
        return f"{_shown(Path(error.filename))}:{error.lineno}: SyntaxError: {error.msg}"
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if not frame.filename.startswith("<frozen") and not _is_own(frame.filename)
    ]
    if not frames:
        return text
    return f"{_shown(Path(frames[-1].filename))}:{frames[-1].lineno}: {text}"


_OWN = Path(__file__).resolve().parent


def _is_own(filename: str) -> bool:
    try:
        return Path(filename).resolve().is_relative_to(_OWN)
    except (OSError, ValueError):
        return False


def _file_of(module: ModuleType) -> Path | None:
    filename = getattr(module, "__file__", None)
    return Path(filename).resolve() if filename else None


def _names(module: ModuleType, wanted: Callable[[object], bool]) -> list[str]:
    """The names of ``module`` that are ``wanted``, those it defines itself when it has any."""
    members = [(name, value) for name, value in vars(module).items() if not name.startswith("_")]
    matching = [(name, value) for name, value in members if wanted(value)]
    own = [name for name, value in matching if getattr(value, "__module__", "") == module.__name__]
    return own or [name for name, _ in matching]


def _label(module: ModuleType) -> str:
    path = _file_of(module)
    return f"module {module.__name__!r}" if path is None else _shown(path)


def _shown(path: Path) -> str:
    """``path`` as the user would type it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except (OSError, ValueError):
        return str(path)
