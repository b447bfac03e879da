"""The generated class of the build benchmark: N methods x 9 parameters, Google docstrings.

Every method takes ``str``, ``float``, ``Literal``, ``list[str] | None``, an Enum, a
nested dataclass, ``datetime``, ``Annotated[int, Ge(1), Le(100)]`` and an ``int``
with a default (last, as Python requires). Each method has its own Enum and
dataclass (same shape, different names), so no two methods have the same schema
and no cache keyed by a schema can stand in for building or compiling it.

The source is written to a real file (peers read docstrings and sources through
``inspect``); ``load`` executes it as a fresh module each time, so no library can
answer a second build from a cache keyed by the class or its types.
"""

from __future__ import annotations

import hashlib
import itertools
import marshal
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

__all__ = ["VALID_ARGUMENTS", "load", "method_names", "prepare", "source"]

_HEADER = '''"""Generated benchmark class: {count} methods x 9 parameters."""

import datetime
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Literal

from annotated_types import Ge, Le
'''

_TYPES = '''

class Color{group}(Enum):
    """A colour for method {group}."""

    RED = "red"
    GREEN = "green"
    BLUE = "blue"


@dataclass
class Address{group}:
    """A postal address for method {group}.

    Attributes:
        street: Street and number.
        city: City or town.
        postcode: Postal code.
    """

    street: str
    city: str
    postcode: str
'''

_METHOD = '''
    def method_{index}(
        self,
        name: str,
        ratio: float,
        mode: Literal["fast", "safe", "auto"],
        tags: list[str] | None,
        color: Color{group},
        address: Address{group},
        when: datetime.datetime,
        level: Annotated[int, Ge(1), Le(100)],
        count: int = 10,
    ) -> str:
        """Run operation {index} on a named record.

        Looks the record up by name, applies operation {index} with the given
        options and returns a one-line report of what changed.

        Args:
            name: Name of the record to change.
            ratio: Share of the record to process, from 0 to 1.
            mode: How careful the operation is.
            tags: Labels to attach, or null for none.
            color: Colour to paint the record.
            address: Where to ship the result.
            when: When the change takes effect (ISO 8601).
            level: Priority from 1 (lowest) to 100 (highest).
            count: How many times to repeat the operation.

        Returns:
            A one-line report.
        """
        return name
'''

VALID_ARGUMENTS: dict[str, Any] = {
    "name": "widget",
    "ratio": 0.5,
    "mode": "fast",
    "tags": ["new", "blue"],
    "color": "red",
    "address": {"street": "1 Main Street", "city": "Springfield", "postcode": "12345"},
    "when": "2024-05-01T12:00:00Z",
    "level": 5,
    "count": 3,
}
"""Valid arguments for every generated method."""

_counter = itertools.count()
_code: dict[int, tuple[Path, types.CodeType]] = {}


def source(count: int, variant: int = 0) -> str:
    """Python source of a module defining ``Service`` with ``count`` methods.

    Another ``variant`` names the Enums and dataclasses differently, so its schemas
    differ from every other variant's (warm builds must not hit a schema cache).
    """
    suffix = f"v{variant}_" if variant else ""
    parts = [_HEADER.format(count=count)]
    parts += [_TYPES.format(group=f"{suffix}{i}") for i in range(count)]
    parts.append('\n\nclass Service:\n    """A generated service."""\n')
    parts += [_METHOD.format(index=i, group=f"{suffix}{i}") for i in range(count)]
    return "".join(parts)


def method_names(count: int) -> list[str]:
    return [f"method_{i}" for i in range(count)]


def prepare(count: int) -> tuple[Path, types.CodeType]:
    """Write the source and its compiled code once, in a directory shared by every process.

    Compiling a 1,000-method module takes far more memory than building its
    schemas does; loading the marshalled code keeps that spike out of the
    children's peak RSS.
    """
    if count in _code:
        return _code[count]
    text = source(count)
    digest = hashlib.sha256(f"{sys.version}\n{text}".encode()).hexdigest()[:16]
    directory = Path(tempfile.gettempdir()) / f"llmapp-bench-{digest}"
    path, cached = directory / f"generated_{count}.py", directory / f"generated_{count}.marshal"
    directory.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    if cached.exists():
        code = marshal.loads(cached.read_bytes())
    else:
        code = compile(text, str(path), "exec")
        partial = cached.with_suffix(f".{next(_counter)}.tmp")
        partial.write_bytes(marshal.dumps(code))
        partial.replace(cached)  # atomic: a concurrent reader sees all of it or none
    _code[count] = (path, code)
    return path, code


def load(count: int, variant: int = 0) -> types.ModuleType:
    """A fresh module (new classes, new types) from the generated source.

    Variant 0 is the cached code every process shares; others are compiled here.
    """
    path, code = prepare(count)
    if variant:
        path = path.with_name(f"generated_{count}_v{variant}.py")
        text = source(count, variant)
        if not path.exists():
            path.write_text(text, encoding="utf-8")
        code = compile(text, str(path), "exec")
    name = f"_llmapp_bench_generated_{count}_{next(_counter)}"
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module  # dataclasses and get_type_hints look modules up here
    exec(code, module.__dict__)
    return module
