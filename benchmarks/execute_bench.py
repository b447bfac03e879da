"""``python -m benchmarks.execute_bench [--quick] [--steps]``: one tool call, text in, value out.

The model's argument text goes in, the method's return value comes out; side by side in
one run, on two tools that look like real ones:

- **search** (3 fields: a string, a bounded integer, a boolean);
- **order** (a customer dataclass, 10 item dataclasses with an Enum and bounds, an Enum
  priority, a ``datetime``, an optional note).

Each is called with valid text and with text holding three mistakes that every peer
rejects (a wrong type, a broken bound or enum value, an extra or missing key).

| peer | what is timed |
|------|---------------|
| llmapp `execute` | ``app.execute(shop, name, text)``: parse, repair, validate, convert, call, and on a mistake the feedback text |
| json.loads + pydantic | ``json.loads`` + ``TypeAdapter(Model).validate_python`` (strict, extra keys forbidden; the Enum and ``datetime`` fields lax, as strict Python mode takes no JSON text for them) + the call; ``.errors()`` on failure |
| pydantic-ai | ``Tool(fn).function_schema``: ``validator.validate_json(text)`` + ``FunctionSchema.call`` (async; the message pydantic-ai sends back is not built) |
| openai-agents | ``function_tool(fn).on_invoke_tool(ctx, text)`` (async; on a mistake it returns its error text) |

The async peers get an ``async def`` of the same body (a plain ``def`` would cost them a
thread hop) and are timed as many awaited calls inside one ``run_until_complete``, so no
event-loop start is timed. Each figure is µs per call: the median of the repeats, with
their min and max; the peers of one row are timed interleaved. Ratios are llmapp ÷ peer.

``--steps`` also prints where llmapp's time goes, step by step (parse, coerce, validate,
checked, convert, call, to_json, feedback), each step timed alone on the same inputs.

Targets (issue "The call step at pydantic speed"): llmapp ≤ 2x json.loads + pydantic +
call on valid text, ≤ 3x with three mistakes, and faster than the Agents SDK's
``on_invoke_tool`` on every row. Not part of ``python -m benchmarks``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import logging
import statistics
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Annotated, Any

from annotated_types import Ge, Gt, Le, MaxLen, MinLen

from benchmarks._report import NA, fmt, fmt_ratio, ratio, table

__all__ = ["main"]


# --- the tools ---------------------------------------------------------------------------


class Size(Enum):
    """A garment's size."""

    SMALL = "S"
    MEDIUM = "M"
    LARGE = "L"


class Priority(Enum):
    """How fast the order ships."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


@dataclass
class Customer:
    """Who orders."""

    id: Annotated[int, Ge(1)]
    name: Annotated[str, MinLen(1), MaxLen(100)]
    email: str
    vip: bool


@dataclass
class Item:
    """One line of an order."""

    sku: Annotated[str, MinLen(3)]
    quantity: Annotated[int, Ge(1), Le(1000)]
    price: Annotated[float, Gt(0)]
    size: Size
    tags: list[str]


def _search(query: str, limit: int, exact: bool) -> list[str]:
    return [f"{query}-{index}" for index in range(min(limit, 3))] if not exact else [query]


def _order(
    id: str,
    customer: Any,
    items: list[Any],
    priority: Any,
    placed_at: datetime,
    note: str | None,
) -> dict[str, Any]:
    total = sum(item.quantity * item.price for item in items)
    return {
        "id": id,
        "customer": customer.id,
        "lines": len(items),
        "total": round(total, 2),
        "priority": priority.value,
        "placed_at": placed_at.isoformat(),
        "note": note,
    }


class Shop:
    """The two tools as methods, for ``llmapp.application``."""

    def search(self, query: str, limit: Annotated[int, Ge(1), Le(100)], exact: bool) -> list[str]:
        """Search the catalogue.

        Args:
            query: Words to look for.
            limit: Most results to return.
            exact: Match the words exactly.
        """
        return _search(query, limit, exact)

    def place_order(
        self,
        id: str,
        customer: Customer,
        items: list[Item],
        priority: Priority,
        placed_at: datetime,
        note: str | None = None,
    ) -> dict[str, Any]:
        """Place an order.

        Args:
            id: The order's number.
            customer: Who orders.
            items: What is ordered.
            priority: How fast it ships.
            placed_at: When the order was placed.
            note: A note for the warehouse.
        """
        return _order(id, customer, items, priority, placed_at, note)


def search(query: str, limit: Annotated[int, Ge(1), Le(100)], exact: bool) -> list[str]:
    """Search the catalogue.

    Args:
        query: Words to look for.
        limit: Most results to return.
        exact: Match the words exactly.
    """
    return _search(query, limit, exact)


async def asearch(query: str, limit: Annotated[int, Ge(1), Le(100)], exact: bool) -> list[str]:
    """Search the catalogue.

    Args:
        query: Words to look for.
        limit: Most results to return.
        exact: Match the words exactly.
    """
    return _search(query, limit, exact)


async def aplace_order(
    id: str,
    customer: Customer,
    items: list[Item],
    priority: Priority,
    placed_at: datetime,
    note: str | None = None,
) -> dict[str, Any]:
    """Place an order.

    Args:
        id: The order's number.
        customer: Who orders.
        items: What is ordered.
        priority: How fast it ships.
        placed_at: When the order was placed.
        note: A note for the warehouse.
    """
    return _order(id, customer, items, priority, placed_at, note)


# --- the payloads ------------------------------------------------------------------------


def _order_data() -> dict[str, Any]:
    return {
        "id": "ORD-2024-000123",
        "customer": {"id": 42, "name": "Ada Lovelace", "email": "ada@example.com", "vip": True},
        "items": [
            {
                "sku": f"SKU-{index:05d}",
                "quantity": 1 + index % 7,
                "price": 9.99 + index,
                "size": ["S", "M", "L"][index % 3],
                "tags": ["sale", f"group-{index % 3}"],
            }
            for index in range(10)
        ],
        "priority": "normal",
        "placed_at": "2024-05-01T10:30:00+02:00",
        "note": None,
    }


def _wrong_order() -> dict[str, Any]:
    data = _order_data()
    data["customer"]["email"] = None  # not a string
    data["items"][4]["size"] = "XL"  # not in the enum
    del data["items"][8]["price"]  # a required key missing
    return data


SEARCH = {"query": "red running shoes", "limit": 20, "exact": False}
WRONG_SEARCH = {"query": 12, "limit": 500, "exact": False, "sort": "price"}

PAYLOADS: dict[str, tuple[str, str]] = {
    "search valid": ("search", json.dumps(SEARCH)),
    "search, 3 mistakes": ("search", json.dumps(WRONG_SEARCH)),
    "order valid": ("place_order", json.dumps(_order_data())),
    "order, 3 mistakes": ("place_order", json.dumps(_wrong_order())),
}
"""Row label → (tool name, the model's argument text)."""


# --- the peers: each maps (tool name, text) to a timed callable -------------------------

Sync = Callable[[str], object]
Async = Callable[[str], Coroutine[Any, Any, object]]


def _llmapp() -> Callable[[str], Sync]:
    from llmapp import application

    app, shop = application(Shop), Shop()

    def make(name: str) -> Sync:
        return lambda text: app.execute(shop, name, text)

    return make


def _pydantic() -> Callable[[str], Sync]:
    from pydantic import BaseModel, ConfigDict, Strict, TypeAdapter, ValidationError

    strict = ConfigDict(strict=True, extra="forbid")

    class PCustomer(BaseModel):
        model_config = strict
        id: Annotated[int, Ge(1)]
        name: Annotated[str, MinLen(1), MaxLen(100)]
        email: str
        vip: bool

    class PItem(BaseModel):
        model_config = strict
        sku: Annotated[str, MinLen(3)]
        quantity: Annotated[int, Ge(1), Le(1000)]
        price: Annotated[float, Gt(0)]
        size: Annotated[Size, Strict(False)]
        tags: list[str]

    class SearchArgs(BaseModel):
        model_config = strict
        query: str
        limit: Annotated[int, Ge(1), Le(100)]
        exact: bool

    class OrderArgs(BaseModel):
        model_config = strict
        id: str
        customer: PCustomer
        items: list[PItem]
        priority: Annotated[Priority, Strict(False)]
        placed_at: Annotated[datetime, Strict(False)]
        note: str | None = None

    tools: dict[str, tuple[TypeAdapter[Any], Callable[..., Any]]] = {
        "search": (TypeAdapter(SearchArgs), search),
        "place_order": (TypeAdapter(OrderArgs), Shop().place_order),
    }
    loads = json.loads

    def make(name: str) -> Sync:
        adapter, function = tools[name]

        def call(text: str) -> object:
            try:
                args = adapter.validate_python(loads(text))
            except ValidationError as error:
                return error.errors()
            return function(**{key: getattr(args, key) for key in type(args).model_fields})

        return call

    return make


def _pydantic_ai() -> Callable[[str], Async]:
    from pydantic import ValidationError
    from pydantic_ai import Tool

    schemas = {
        "search": Tool(asearch).function_schema,
        "place_order": Tool(aplace_order, name="place_order").function_schema,
    }

    def make(name: str) -> Async:
        schema = schemas[name]

        async def call(text: str) -> object:
            try:
                args = schema.validator.validate_json(text)
            except ValidationError as error:
                return error.errors()
            return await schema.call(args, None)  # type: ignore[arg-type]

        return call

    return make


def _agents() -> Callable[[str], Async]:
    from agents import function_tool, set_tracing_disabled
    from agents.tool_context import ToolContext

    set_tracing_disabled(True)  # no trace is exported here; its warnings are not timed
    logging.getLogger("openai.agents").setLevel(logging.CRITICAL)

    tools = {"search": function_tool(asearch), "place_order": function_tool(aplace_order)}

    def make(name: str) -> Async:
        tool = tools[name]
        tool_name = "search" if name == "search" else "aplace_order"

        async def call(text: str) -> object:
            context = ToolContext(
                context=None, tool_name=tool_name, tool_call_id="call_1", tool_arguments=text
            )
            return await tool.on_invoke_tool(context, text)

        return call

    return make


PEERS: dict[str, Callable[[], Callable[[str], Any]]] = {
    "llmapp execute": _llmapp,
    "json.loads + pydantic + call": _pydantic,
    "pydantic-ai FunctionSchema.call": _pydantic_ai,
    "openai-agents on_invoke_tool": _agents,
}
_ASYNC = {"pydantic-ai FunctionSchema.call", "openai-agents on_invoke_tool"}


# --- timing ------------------------------------------------------------------------------

Loop = Callable[[int], float]
"""Runs a call ``number`` times; returns the seconds it took."""
Figures = tuple[float, float, float]
"""(min, median, max) µs per call."""
Results = dict[str, dict[str, Figures | None]]
"""Row label → peer → its figures (None when the peer is not installed)."""


def _sync_loop(call: Sync, text: str) -> Loop:
    def run(number: int) -> float:
        steps = itertools.repeat(None, number)
        start = time.perf_counter()
        for _ in steps:
            call(text)
        return time.perf_counter() - start

    return run


def _async_loop(call: Async, text: str, loop: asyncio.AbstractEventLoop) -> Loop:
    async def many(number: int) -> float:
        steps = itertools.repeat(None, number)
        start = time.perf_counter()
        for _ in steps:
            await call(text)
        return time.perf_counter() - start

    return lambda number: loop.run_until_complete(many(number))


def _timed(run: Loop, number: int) -> float:
    enabled = gc.isenabled()
    gc.disable()  # as timeit does
    try:
        return run(number)
    finally:
        if enabled:
            gc.enable()


def _loop_count(run: Loop, target: float) -> int:
    base = 1
    while True:
        for factor in (1, 2, 5):
            if _timed(run, base * factor) >= target:
                return base * factor
        base *= 10


def _measure(loops: dict[str, Loop], quick: bool) -> dict[str, Figures]:
    """(min, median, max) µs per call of each loop, timed interleaved."""
    target, repeats = (0.02, 5) if quick else (0.1, 9)
    numbers = {}
    for name, run in loops.items():
        run(1)  # warm up: first-call compilation is not the steady state
        numbers[name] = _loop_count(run, target)
    times: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(repeats):
        for name, run in loops.items():
            times[name].append(_timed(run, numbers[name]) / numbers[name] * 1e6)
    return {name: (min(t), statistics.median(t), max(t)) for name, t in times.items()}


# --- the steps of llmapp's call ----------------------------------------------------------


def _steps(quick: bool) -> dict[str, dict[str, Figures]]:
    """Each step of llmapp's call timed alone, per row.

    ``coerce`` is the whole repair walk (what every call paid before the call step
    validated first); ``checked`` is what the call step does now: validate, and repair
    only what the validator refused, then validate again if something was repaired.
    """
    from llmapp import application, convert, explain, repair

    app, shop = application(Shop), Shop()
    found: dict[str, dict[str, Figures]] = {}
    for label, (name, text) in PAYLOADS.items():
        plan = app._plans[name]
        app.execute(shop, name, text)  # compiles the validator and the converter
        data = repair.parse(text).data
        coerce, checked = _repair_steps(plan)
        validation = checked(data)
        loops: dict[str, Loop] = {
            "parse": _sync_loop(repair.parse, text),
            "coerce": _sync_loop(coerce, data),
            "validate": _sync_loop(_side(plan)[1], data),
            "checked": _sync_loop(checked, data),
        }
        if validation.success:
            args, kwargs = plan.convert(validation.data)
            target = getattr(shop, name)
            value = target(*args, **kwargs)
            loops["convert"] = _sync_loop(plan.convert, validation.data)
            loops["call"] = _sync_loop(lambda a, t=target, k=kwargs: t(*a, **k), args)
            loops["to_json"] = _sync_loop(convert.to_json, value)
        else:
            loops["feedback"] = _sync_loop(explain.feedback, validation)
        loops["execute (whole)"] = _sync_loop(lambda t, n=name: app.execute(shop, n, t), text)
        found[label] = _measure(loops, quick)
    return found


def _side(plan: Any) -> tuple[Any, Sync]:
    """The schema repaired against and the check, of this tree (``Plan.side``) or an older
    one (``repair_against`` and ``check``)."""
    side = getattr(plan, "side", None)
    if side is not None:
        return side.schema, side.check
    return plan.repair_against, plan.check


def _repair_steps(plan: Any) -> tuple[Sync, Sync]:
    """The whole repair walk, and the call step's repair-and-check, of this tree or an
    older one (``PYTHONPATH=../old/src``: before ``repair.coercer``, every call coerced)."""
    from llmapp import repair

    schema, check = _side(plan)
    coercer = getattr(repair, "coercer", None)
    if coercer is None:
        return (lambda d: repair.coerce(d, schema)), (lambda d: check(repair.coerce(d, schema)))
    coercion = coercer(schema)
    return coercion, (lambda d: coercion.checked(d, check))


# --- the report --------------------------------------------------------------------------


def _spread(figures: Figures | None) -> str:
    if figures is None:
        return NA
    low, median, high = figures
    return f"{fmt(median)} ({fmt(low)}-{fmt(high)})"


def run(quick: bool) -> Results:
    """Every peer on every row: ``{row: {peer: (min, median, max) µs or None}}``."""
    makers: dict[str, Callable[[str], Any] | None] = {}
    for peer, factory in PEERS.items():
        try:
            makers[peer] = factory()
        except ImportError:
            makers[peer] = None
    loop = asyncio.new_event_loop()
    results: Results = {}
    try:
        for label, (name, text) in PAYLOADS.items():
            loops: dict[str, Loop] = {}
            for peer, make in makers.items():
                if make is None:
                    continue
                call = make(name)
                if peer in _ASYNC:
                    loops[peer] = _async_loop(call, text, loop)
                else:
                    loops[peer] = _sync_loop(call, text)
            measured = _measure(loops, quick)
            results[label] = {peer: measured.get(peer) for peer in PEERS}
    finally:
        loop.close()
    return results


def _ratios(ours: Figures | None, theirs: Figures | None) -> tuple[float | None, float | None]:
    """llmapp ÷ peer of the medians, and of the minimums (the least disturbed loops)."""
    if ours is None or theirs is None:
        return None, None
    return ratio(ours[1], theirs[1]), ratio(ours[0], theirs[0])


def _pair(ratios: tuple[float | None, float | None]) -> str:
    return f"{fmt_ratio(ratios[0])} ({fmt_ratio(ratios[1])})"


def _targets(results: Results) -> list[list[str]]:
    rows = []
    for label, row in results.items():
        ours = row["llmapp execute"]
        bound = 2.0 if "valid" in label else 3.0
        versus = _ratios(ours, row["json.loads + pydantic + call"])
        holds = versus[0] is not None and versus[0] <= bound
        rows.append(
            [label, f"≤ {bound:.0f}x json.loads + pydantic", _pair(versus), _yes(versus[0], holds)]
        )
        faster = _ratios(ours, row["openai-agents on_invoke_tool"])
        holds = faster[0] is not None and faster[0] < 1
        rows.append([label, "< 1x on_invoke_tool", _pair(faster), _yes(faster[0], holds)])
    return rows


def _yes(value: float | None, holds: bool) -> str:
    return NA if value is None else ("holds" if holds else "MISSED")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter timings (CI)")
    parser.add_argument("--steps", action="store_true", help="also time llmapp's steps alone")
    args = parser.parse_args(argv)
    results = run(args.quick)
    peers = list(PEERS)
    print("## execute end to end: µs per call, median (min-max)\n")
    rows = []
    for label, row in results.items():
        ours = row["llmapp execute"]
        cells = [label, *(_spread(row[peer]) for peer in peers)]
        cells += [_pair(_ratios(ours, row[peer])) for peer in peers[1:]]
        rows.append(cells)
    headers = ["row", *peers, *(f"llmapp ÷ {peer.split()[0]}" for peer in peers[1:])]
    print(table(headers, rows))
    print("\nRatios: of the medians (of the minimums).\n\n## targets (on the medians)\n")
    print(table(["row", "target", "ratio (of minimums)", "verdict"], _targets(results)))
    if args.steps:
        print("\n## where llmapp's time goes: each step alone, µs, median (min-max)\n")
        steps = _steps(args.quick)
        names = list(dict.fromkeys(step for row in steps.values() for step in row))
        print(
            table(
                ["row", *names],
                [[label, *(_spread(row.get(n)) for n in names)] for label, row in steps.items()],
            )
        )


if __name__ == "__main__":
    main()
