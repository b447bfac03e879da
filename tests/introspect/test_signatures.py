"""``_compat.signature_of`` reads what ``inspect.signature`` reads, for every form of parameter."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import pytest

from llmapp.introspect._compat import signature_of


def plain(self, a: int, b: str = "x") -> bool:  # type: ignore[no-untyped-def]
    return True


def positional_only(a: int, b: int = 2, /, c: int = 3, *, d: int, e: int = 5) -> None:
    return None


def star_args(a, *args: int, b: str = "b", **kwargs: float):  # type: ignore[no-untyped-def]
    return None


def star_kwargs_only(**kwargs: Any) -> None:
    return None


def bare_star(*, key: str) -> str:
    return key


def no_annotations(a, b=1, *c, d, e=2, **f):  # type: ignore[no-untyped-def]
    return None


def defaults_everywhere(a: int = 1, b: int = 2, /, c: int = 3) -> int:
    return a


@functools.wraps(plain)
def wrapper(*args: Any, **kwargs: Any) -> Any:
    return plain(*args, **kwargs)


def signed(a: int) -> int:
    return a


signed.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter("z", inspect.Parameter.KEYWORD_ONLY, annotation=str)],
    return_annotation=str,
)


def annotations_reset(a: int) -> int:
    return a


annotations_reset.__annotations__ = None  # type: ignore[assignment]


class Holder:
    def method(self, a: int, *, b: int = 1) -> int:
        return a

    half = functools.partialmethod(method, 1)


def _lambda_defaults() -> Callable[..., Any]:
    return lambda a, b=2, *, c=3: a


FUNCTIONS: list[Any] = [
    plain,
    positional_only,
    star_args,
    star_kwargs_only,
    bare_star,
    no_annotations,
    defaults_everywhere,
    wrapper,
    signed,
    annotations_reset,
    Holder.method,
    Holder.half,
    _lambda_defaults(),
    functools.partial(plain, None),
    len,
]


@pytest.mark.parametrize(
    "function", FUNCTIONS, ids=lambda f: getattr(f, "__name__", type(f).__name__)
)
def test_signature_of_reads_what_inspect_reads(function: Any) -> None:
    signature = inspect.signature(function)
    expected = [
        (each.name, each.kind, each.annotation, each.default)
        for each in signature.parameters.values()
    ]
    parameters, returns = signature_of(function)
    assert [tuple(each) for each in parameters] == expected
    assert returns == signature.return_annotation


def test_signature_of_raises_what_inspect_raises() -> None:
    with pytest.raises(TypeError):
        inspect.signature(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        signature_of(42)
