"""The fields of object-like classes: dataclass, TypedDict, NamedTuple, pydantic, attrs.

Each kind has one extractor (a row of ``_KINDS``) that returns the raw fields
-- name, unevaluated annotation, the module to evaluate it in, default,
description -- without building any type node; ``TypeBuilder`` does that.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from llmapp._records.record import Record
from llmapp.introspect import _compat
from llmapp.introspect._docstrings import DocInfo, parse_docstring
from llmapp.introspect.model import NO_DEFAULT

__all__ = ["ObjectShape", "RawField", "object_shape"]


class RawField(Record):
    """One field before its type is built."""

    name: str
    annotation: Any
    module: str | None
    """Where a string annotation of this field is evaluated."""
    required: bool
    default: Any = NO_DEFAULT
    description: str | None = None
    python_name: str | None = None
    metadata: tuple[Any, ...] = ()
    """Extra ``Annotated``-style metadata (pydantic's ``FieldInfo``)."""
    owner: type | None = None
    """The class that declares the field, when it is a base of the class read."""


class ObjectShape(Record):
    """What an object-like class looks like, before its field types are built."""

    kind: str
    fields: tuple[RawField, ...]
    description: str | None = None
    title: str | None = None
    extra_allowed: bool = False


def class_doc(cls: type) -> DocInfo:
    """The parsed own docstring of ``cls`` (``EMPTY_DOC`` when there is none)."""
    return parse_docstring(_compat.own_docstring(cls))


def _shape(
    kind: str, cls: type, fields: list[RawField], doc: DocInfo | None = None, **extra: Any
) -> ObjectShape:
    doc = class_doc(cls) if doc is None else doc
    return ObjectShape(
        kind=kind, fields=tuple(fields), description=doc.description, title=doc.title, **extra
    )


def _declaring_classes(cls: type) -> dict[str, type]:
    """Field name -> the class in the MRO whose own annotations declare it last."""
    owners: dict[str, type] = {}
    for klass in reversed(cls.__mro__):
        if klass is not object:  # declares nothing
            for name in inspect.get_annotations(klass):
                owners[name] = klass
    return owners


def _dataclass(cls: type) -> ObjectShape:
    # A class whose only base is ``object`` declares every field itself (the default below).
    owners = _declaring_classes(cls) if len(cls.__mro__) > 2 else {}
    doc = class_doc(cls)
    documented = {owner: class_doc(owner).attributes for owner in {*owners.values()} - {cls}}
    documented[cls] = doc.attributes
    fields = []
    for item in _compat.model_fields(cls):  # the converter builds instances through __init__
        owner = owners.get(item.name, cls)
        has_default = item.default is not dataclasses.MISSING
        has_factory = item.default_factory is not dataclasses.MISSING
        description = documented[owner].get(item.name) or item.metadata.get("description")
        fields.append(
            RawField(
                name=item.name,
                annotation=item.type,
                module=owner.__module__,
                required=not (has_default or has_factory),
                default=item.default if has_default else NO_DEFAULT,
                description=description if isinstance(description, str) else None,
                owner=owner,
            )
        )
    return _shape("dataclass", cls, fields, doc)


def _typeddict_docs(cls: type) -> dict[str, str]:
    docs: dict[str, str] = {}
    for base in getattr(cls, "__orig_bases__", ()):
        if _compat.is_typeddict(base):
            docs.update(_typeddict_docs(base))
    docs.update(class_doc(cls).attributes)
    return docs


def _typeddict(cls: type) -> ObjectShape:
    docs = _typeddict_docs(cls)
    required_keys: frozenset[str] = getattr(cls, "__required_keys__", frozenset())
    fields = [
        RawField(
            name=name,
            annotation=annotation,
            module=cls.__module__,
            required=name in required_keys,
            description=docs.get(name),
        )
        for name, annotation in cls.__annotations__.items()
    ]
    return _shape("typeddict", cls, fields)


def _namedtuple(cls: type) -> ObjectShape:
    annotations = inspect.get_annotations(cls)
    defaults: Mapping[str, Any] = getattr(cls, "_field_defaults", {})
    docs = class_doc(cls).attributes
    fields = [
        RawField(
            name=name,
            annotation=annotations.get(name, Any),
            module=cls.__module__,
            required=name not in defaults,
            default=defaults.get(name, NO_DEFAULT),
            description=docs.get(name),
        )
        for name in cls._fields  # type: ignore[attr-defined]
    ]
    return _shape("namedtuple", cls, fields)


def _pydantic(cls: Any) -> ObjectShape | str:
    if not getattr(cls, "__pydantic_complete__", True):
        try:
            cls.model_rebuild()
        except Exception as error:  # pydantic reports unresolved names this way
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            return f"pydantic model {cls.__qualname__} is incomplete: {reason}"
    docs = class_doc(cls).attributes
    fields = []
    for name, info in cls.model_fields.items():
        default = info.default
        has_default = not info.is_required() and info.default_factory is None
        fields.append(
            RawField(
                name=info.alias or name,
                annotation=info.annotation,
                module=cls.__module__,
                required=info.is_required(),
                default=default if has_default else NO_DEFAULT,
                description=docs.get(name) or info.description,
                python_name=name if info.alias and info.alias != name else None,
                metadata=(info,),
            )
        )
    extra = cls.model_config.get("extra") == "allow"
    return _shape("pydantic", cls, fields, extra_allowed=extra)


def _is_attrs(cls: Any) -> bool:
    return _compat.is_class(cls) and "__attrs_attrs__" in cls.__dict__


def _attrs(cls: Any) -> ObjectShape:
    docs = class_doc(cls).attributes
    fields = []
    for attribute in cls.__attrs_attrs__:
        if not attribute.init:
            continue
        default = attribute.default
        missing = type(default).__name__ == "_Nothing"
        factory = type(default).__name__ == "Factory"
        alias = getattr(attribute, "alias", None) or attribute.name
        fields.append(
            RawField(
                name=alias,
                annotation=Any if attribute.type is None else attribute.type,
                module=cls.__module__,
                required=missing,
                default=NO_DEFAULT if missing or factory else default,
                description=docs.get(attribute.name),
                python_name=attribute.name if alias != attribute.name else None,
            )
        )
    return _shape("class", cls, fields)


# Ordered: pydantic dataclasses are dataclasses, NamedTuples are tuples; first match wins.
_KINDS: tuple[tuple[Callable[[Any], bool], Callable[[Any], ObjectShape | str]], ...] = (
    (_compat.is_pydantic_model, _pydantic),
    (_compat.is_typeddict, _typeddict),
    (_compat.is_namedtuple_class, _namedtuple),
    (_compat.is_dataclass_class, _dataclass),
    (_is_attrs, _attrs),
)


def is_object_class(tp: Any) -> bool:
    """Whether ``tp`` is a class whose fields llmapp can read."""
    return any(matches(tp) for matches, _ in _KINDS)


def object_shape(cls: type) -> ObjectShape | str:
    """The fields of an object-like class, or the reason it cannot be read."""
    for matches, extract in _KINDS:
        if matches(cls):
            return extract(cls)
    return f"{_compat.type_display(cls)} is a plain class with no field model"
