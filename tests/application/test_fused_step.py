"""The fused step (``kernel._execute.fused_step``) answers every call as the general steps do.

The fused step reads strict text itself and runs a call the model wrote right in one
function; anything else it hands to the general steps. Each call below is made twice, by
the plan as built (fused) and by the same plan without its fused step (the general
steps alone), and the two results must be equal in every field: over the generated
corpus's texts, each also rewritten with other whitespace and escapes, and over
adversarial texts (keys written twice at any depth, keys with escaped quotes, ``":``
inside strings, surrogate escapes, a byte-order mark, nesting past the limit).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from annotated_types import Ge, Le
from benchmarks.corpus import generate
from benchmarks.execute_bench import PAYLOADS, Shop
from tests.support.budget import spread

from llmapp import application
from llmapp._records.record import replace
from llmapp.kernel import CallResult, Plan
from llmapp.kernel._execute import _general, _general_check
from llmapp.markers import Human


def _same(fused: CallResult, general: CallResult) -> None:
    """Every field equal; an exception by its type and arguments (each call makes its own)."""
    for name in ("name", "success", "value", "data", "validation", "feedback"):
        assert getattr(fused, name) == getattr(general, name), name
    assert (fused.deprecated, fused.repairs, fused.approval) == (
        general.deprecated,
        general.repairs,
        general.approval,
    )
    assert type(fused.error) is type(general.error)
    if fused.error is not None:
        assert fused.error.args == general.error.args  # type: ignore[union-attr]


def _checked_alike(plan: Plan, text: str) -> Plan:
    """The check alone (what ``aexecute`` and ``prepare`` take) by the plan as built and by
    its general steps: the same answer. The plan with the general steps alone is returned."""
    general = replace(plan, fused=None)
    checked, expected = plan.check(text), general.check(text)
    if isinstance(expected, CallResult):
        assert isinstance(checked, CallResult)
        _same(checked, expected)
    else:
        assert type(checked) is type(expected) and checked == expected
    return general


def _both(plan: Plan, instance: Any, text: str, raise_errors: bool = False) -> CallResult:
    """The call made by the plan as built and by its general steps alone: the same result;
    and the check alone, the same too."""
    general = _checked_alike(plan, text)
    fused = plan.execute(instance, text, None, raise_errors)
    _same(fused, general.execute(instance, text, None, raise_errors))
    return fused


def _write(value: Any, twice: int | None = None, level: int = 0) -> str:
    """JSON text of ``value``, the first key of each object at nesting ``twice`` written
    twice (first with ``null``): a key the decoder would keep only once."""
    if isinstance(value, dict):
        members = [f"{json.dumps(k)}: {_write(v, twice, level + 1)}" for k, v in value.items()]
        if twice == level and value:
            members.insert(0, f"{json.dumps(next(iter(value)))}: null")
        return "{" + ", ".join(members) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_write(item, twice, level + 1) for item in value) + "]"
    return json.dumps(value)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _first_string(value: Any) -> Iterator[list[Any]]:
    """The path to each string value of ``value``, in order."""
    if isinstance(value, dict):
        for key, member in value.items():
            yield from ([key, *rest] for rest in _first_string(member))
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield from ([index, *rest] for rest in _first_string(member))
    elif isinstance(value, str):
        yield []


def _with_string(value: Any, path: list[Any], text: str) -> Any:
    if not path:
        return text
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _with_string(value[path[0]], path[1:], text)
    return copy


def _variants(text: str) -> Iterator[str]:
    """The text, the same data written other ways, and adversarial texts built from it."""
    yield text
    data = json.loads(text)
    yield json.dumps(data, indent=2)
    yield json.dumps(data, separators=(",", ":"))
    yield json.dumps(data, separators=(" ,\t", " :\n"))
    yield json.dumps(data, ensure_ascii=True) + " \r\n"
    yield "\ufeff" + text
    yield text + " x"
    yield "```json\n" + text + "\n```"
    if isinstance(data, dict):
        for level in range(_depth(data)):
            yield _write(data, twice=level)
        yield text[:-1] + (', "a\\"b": 1}' if data else '"a\\"b": 1}')
        yield text[:-1] + (', "x\\": 1": 2}' if data else '"x\\": 1": 2}')
    for path in list(_first_string(data))[:2]:
        for inside in ('x": 1, "y', '\\":', "\ud800", "\ud83d\ude00", "é", "a\\u00e9"):
            changed = json.dumps(_with_string(data, path, inside))
            yield changed
            yield changed.replace("\\ud800", "\\uD800")


CORPUS = generate(60)


@pytest.fixture(scope="module")
def corpus_app() -> Any:
    return application(CORPUS.tools)


@pytest.mark.budgeted
@pytest.mark.parametrize(
    "case", [*spread(CORPUS.cases, 2), *CORPUS.named], ids=lambda case: case.name
)
def test_the_corpus_gets_the_same_answers_from_the_fused_step(corpus_app: Any, case: Any) -> None:
    plan, tools = corpus_app._plans[case.name], CORPUS.tools()
    for text in case.texts.values():
        for variant in _variants(text):
            _both(plan, tools, variant)


def test_the_named_payloads_get_the_same_answers() -> None:
    app, shop = application(Shop), Shop()
    for name, text in PAYLOADS.values():
        for variant in _variants(text):
            _both(app._plans[name], shop, variant)


def test_nesting_past_the_limit_and_oversized_text_take_the_general_steps() -> None:
    app, shop = application(Shop), Shop()
    plan = app._plans["search"]
    deep = '{"query": ' + "[" * 600 + "]" * 600 + ', "limit": 1, "exact": true}'
    assert "nesting" in (_both(plan, shop, deep).feedback or "")
    long = '{"query": "' + "a" * (plan.max_length + 10) + '", "limit": 1, "exact": true}'
    assert not _both(plan, shop, long).success


class Desk:
    def search(self, query: str, limit: Annotated[int, Ge(1), Le(100)]) -> list[str]:
        """Search."""
        return [query] * limit

    def fail(self, code: int) -> int:
        """Fail."""
        raise ValueError(f"no {code}")

    def lines(self, count: int) -> list[int]:
        """Count, lazily."""
        return iter(range(count))  # type: ignore[return-value]

    @classmethod
    def kind(cls, name: str) -> str:
        """A class method."""
        return name

    async def later(self, name: str) -> str:
        """An async method."""
        return name


def test_a_call_the_model_wrote_right_is_answered_by_the_fused_step() -> None:
    app, desk = application(Desk), Desk()
    plan = app._plans["search"]
    result = _both(plan, desk, '{"query": "socks", "limit": 2}')
    assert result.success and result.value == ["socks", "socks"]
    assert plan.fused is not None and plan.fused.step not in (None, _general)
    assert plan.fused.step(desk, '{"query": "socks", "limit": 2}', False) is not None
    # Text it does not read itself is handed on, nothing run.
    assert plan.fused.step(desk, '{"query": "socks", "limit": 2,}', False) is None
    assert plan.fused.step(desk, '{"query": "\\u00e9", "limit": 2}', False) is None


def test_the_method_raising_and_its_iterator_are_answered_alike() -> None:
    app, desk = application(Desk), Desk()
    raised = _both(app._plans["fail"], desk, '{"code": 7}')
    assert not raised.success and isinstance(raised.error, ValueError)
    with pytest.raises(ValueError, match="no 7"):
        app._plans["fail"].execute(desk, '{"code": 7}', None, True)
    assert _both(app._plans["lines"], desk, '{"count": 3}').value == [0, 1, 2]


def test_a_class_or_async_method_keeps_the_general_steps() -> None:
    app, desk = application(Desk), Desk()
    for name, text in (("kind", '{"name": "a"}'), ("later", '{"name": "a"}')):
        plan = app._plans[name]
        assert _both(plan, desk, text).value == "a"
        assert plan.fused is not None and plan.fused.step is _general
    wrong = application(Shop)._plans["search"]
    with pytest.raises(Exception, match="instance"):
        wrong.execute(object(), '{"query": "a", "limit": 1, "exact": true}', None, False)


class Hidden:
    def book(self, room: str, user_id: Annotated[str, Human()]) -> str:
        """Book a room for a user."""
        return f"{room} for {user_id}"


def test_a_separated_function_is_checked_alike_and_its_call_keeps_the_general_steps() -> None:
    app, hidden = application(Hidden), Hidden()
    plan = app._plans["book"]
    for text in ('{"room": "a"}', '{"room": 1}', '{"room": "a", "user_id": "x"}', '{"room": "a",}'):
        general = _checked_alike(plan, text)
        _same(
            plan.execute(hidden, text, {"user_id": "u1"}, False),
            general.execute(hidden, text, {"user_id": "u1"}, False),
        )
    assert plan.fused is not None and plan.fused.check not in (None, _general_check)


def test_aexecute_answers_as_execute() -> None:
    app, desk = application(Desk), Desk()
    for text in ('{"query": "a", "limit": 2}', '{"query": 1, "limit": 200}', "{"):
        expected = app.execute(desk, "search", text)
        _same(asyncio.run(app.aexecute(desk, "search", text)), expected)
