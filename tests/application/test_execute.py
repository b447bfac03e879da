"""Execute end to end on the example shop: repairs, feedback, human values, and what the LLM must not reach."""

from __future__ import annotations

import asyncio
import base64
import uuid
from dataclasses import dataclass

import pytest

import llmapp
from llmapp import ExecutionError, application, llm_application

ANN = {"name": "Ann Lee", "email": "ann@example.com"}


@pytest.fixture
def shop(shop_module):
    return shop_module.Shop()


@pytest.fixture
def app(shop_module):
    return application(shop_module.Shop)


def test_valid_call_returns_python_value_and_json_data(app, shop, shop_module):
    result = app.execute(shop, "search", {"query": "shears"})
    assert result.success and result.error is None and result.feedback is None
    assert result.value == [shop_module.CATALOGUE[2]]
    assert result.data == [
        {"sku": "GD-221", "name": "Pruning shears", "price": 19.9, "category": "garden"}
    ]


def test_enum_argument_becomes_member(app, shop):
    result = app.execute(shop, "search", {"query": "", "category": "garden", "limit": 1})
    assert result.success
    assert [product.sku for product in result.value] == ["GD-104"]


def test_raw_text_with_fence_and_string_quantity_is_repaired_and_called(app, shop, shop_module):
    text = (
        "Sure, here is the call:\n```json\n"
        '{"customer": {"name": "Ann Lee", "email": "ann@example.com"},\n'
        ' "items": [{"sku": "GD-221", "quantity": "3"},],}\n```'
    )
    result = app.execute(shop, "create_order", text)
    assert result.success, result.feedback
    order = result.value
    assert isinstance(order, shop_module.Order)
    assert isinstance(order.customer, shop_module.Customer)
    assert order.items == [shop_module.OrderItem("GD-221", 3)]
    assert order.priority == "normal"
    assert isinstance(order.id, uuid.UUID)
    assert result.data["items"] == [{"sku": "GD-221", "quantity": 3}]
    assert result.data["id"] == str(order.id)
    assert shop.orders == {order.id: order}


def test_three_mistakes_make_no_call_and_feedback_lists_all(app, shop):
    arguments = {
        "customer": {"name": "Ann Lee", "email": "not-an-address"},
        "items": [{"sku": "GD-221", "quantity": 1}, {"sku": "KT-310", "quantity": 0}],
        "priority": "urgent",
    }
    result = app.execute(shop, "create_order", arguments)
    assert not result.success
    assert shop.orders == {}
    paths = [issue.path for issue in result.validation.errors]
    assert paths == ["$input.customer.email", "$input.items[1].quantity", "$input.priority"]
    for path in paths:
        assert f'"path": "{path}"' in result.feedback or f'"path":"{path}"' in result.feedback
    assert result.feedback.count("// ❌ [") == 3


def test_method_error_is_captured_not_raised(app, shop):
    result = app.execute(shop, "create_order", {"customer": ANN, "items": [{"sku": "ZZ-999"}]})
    assert not result.success
    assert isinstance(result.error, ValueError)
    assert "ZZ-999" in str(result.error)
    assert result.validation is None
    with pytest.raises(ValueError):
        app.execute(
            shop, "create_order", {"customer": ANN, "items": [{"sku": "ZZ-999"}]}, raise_errors=True
        )


def test_prepare_stops_before_the_call_and_the_prepared_call_runs_as_execute(app, shop):
    wrong = app.prepare(shop, "create_order", {"customer": ANN, "items": [{"quantity": 0}]})
    assert isinstance(wrong, llmapp.CallResult) and not wrong.success
    assert (
        wrong.feedback
        == app.execute(shop, "create_order", {"customer": ANN, "items": [{"quantity": 0}]}).feedback
    )
    assert shop.orders == {}
    prepared = app.prepare(shop, "search", {"query": "shears"})
    assert not isinstance(prepared, llmapp.CallResult)  # nothing ran yet: a call to run
    assert prepared.run().data == app.execute(shop, "search", {"query": "shears"}).data
    assert asyncio.run(prepared.arun()).data == prepared.run().data
    failing = app.prepare(shop, "create_order", {"customer": ANN, "items": [{"sku": "ZZ-999"}]})
    assert isinstance(failing.run().error, ValueError)
    with pytest.raises(ValueError):
        failing.run(raise_errors=True)


def _place_order(app, shop):
    return app.execute(shop, "create_order", {"customer": ANN, "items": [{"sku": "BK-001"}]}).value


def test_human_file_is_merged_into_the_call(app, shop):
    order = _place_order(app, shop)
    function = app.function("attach_receipt")
    assert function.separated is not None
    assert "file" not in function.separated.llm["properties"]
    assert list(function.separated.human["properties"]) == ["file"]
    pdf = b"%PDF-1.7 receipt"
    result = app.execute(
        shop,
        "attach_receipt",
        {"order_id": str(order.id), "title": "Till receipt"},
        human={"file": pdf},
    )
    assert result.success, result.feedback
    assert result.value == len(pdf)
    assert order.receipts == ["Till receipt"]


def test_human_file_may_come_as_base64(app, shop):
    order = _place_order(app, shop)
    encoded = base64.b64encode(b"12345").decode()
    result = app.execute(
        shop, "attach_receipt", {"order_id": str(order.id), "title": "t"}, human={"file": encoded}
    )
    assert result.success and result.value == 5


def test_missing_human_value_is_an_application_error(app, shop):
    order = _place_order(app, shop)
    with pytest.raises(ExecutionError, match="missing"):
        app.execute(shop, "attach_receipt", {"order_id": str(order.id), "title": "t"})


def test_human_side_key_sent_by_llm_is_superfluous(app, shop):
    order = _place_order(app, shop)
    result = app.execute(
        shop,
        "attach_receipt",
        {"order_id": str(order.id), "title": "t", "file": "aGVsbG8="},
        human={"file": b"real"},
    )
    assert not result.success
    assert [(i.path, i.expected) for i in result.validation.errors] == [
        ("$input.file", "undefined")
    ]
    assert order.receipts == []


def test_extra_keys_and_self_are_rejected(app, shop):
    result = app.execute(shop, "search", {"query": "pan", "self": 1, "debug": True})
    assert not result.success
    issues = {(i.path, i.expected) for i in result.validation.errors}
    assert issues == {("$input.self", "undefined"), ("$input.debug", "undefined")}


def test_deprecated_function_still_runs_and_says_so(app, shop):
    order = _place_order(app, shop)
    result = app.execute(shop, "track_order", {"order_id": str(order.id)})
    assert result.success and result.deprecated and result.value == "open"
    assert not app.execute(shop, "search", {"query": "x"}).deprecated


def test_unknown_function_names_the_closest(app, shop):
    result = app.execute(shop, "serch", {"query": "x"})
    assert not result.success and result.value is None
    assert "'search'" in result.feedback
    assert "serch" in result.feedback


@llm_application
class Guarded:
    """Only `visible` is a function."""

    secret = "s3cret"

    def visible(self, text: str) -> str:
        """Echo text."""
        return text

    def _private(self) -> str:
        """Private."""
        return self.secret

    def hidden(self) -> str:
        """Never shown.

        @hidden
        """
        return self.secret

    def internal(self) -> str:
        """Never shown either.

        @internal
        """
        return self.secret

    def operator(self, note: str) -> str:
        """For people, not the model.

        @human
        """
        return self.secret

    @property
    def size(self) -> int:
        return 1


@pytest.mark.parametrize(
    "name",
    [
        "_private",
        "__init__",
        "__class__",
        "hidden",
        "internal",
        "operator",
        "size",
        "secret",
        "visible ",
    ],
)
def test_what_the_llm_was_not_given_is_unknown(name):
    app = application(Guarded)
    assert [function.name for function in app.functions] == ["visible"]
    result = app.execute(Guarded(), name, {})
    assert not result.success
    assert result.value is None and result.error is None
    assert "There is no function named" in result.feedback


def test_model_text_is_data_never_code():
    app = application(Guarded)
    text = "{\"text\": \"__import__('os').system('echo pwned')\"}"
    result = app.execute(Guarded(), "visible", text)
    assert result.success
    assert result.value == "__import__('os').system('echo pwned')"


def test_unreadable_text_is_feedback_not_an_exception():
    app = application(Guarded)
    result = app.execute(Guarded(), "visible", "I cannot do that")
    assert not result.success
    assert result.validation is not None and result.feedback
    assert result.validation.errors[0].path == "$input"


def test_none_arguments_mean_an_empty_object():
    app = application(Guarded)
    result = app.execute(Guarded(), "visible", None)
    assert not result.success
    assert [(i.path, i.value) for i in result.validation.errors] == [
        ("$input.text", llmapp.UNDEFINED)
    ]


@dataclass
class Point:
    x: int
    y: int


@llm_application
class Kinds:
    """Static, class and async methods."""

    factor = 10

    @staticmethod
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    @classmethod
    def scale(cls, value: int) -> int:
        """Scale by the class factor."""
        return value * cls.factor

    async def move(self, point: Point, dx: int = 1) -> Point:
        """Move a point."""
        await asyncio.sleep(0)
        return Point(point.x + dx, point.y)


def test_static_and_class_methods_accept_the_class_or_an_instance():
    app = application(Kinds)
    assert app.execute(Kinds, "add", {"a": 2, "b": 3}).value == 5
    assert app.execute(Kinds(), "add", {"a": 2, "b": 3}).value == 5
    assert app.execute(Kinds, "scale", {"value": 2}).value == 20


def test_instance_method_needs_an_instance():
    app = application(Kinds)
    with pytest.raises(ExecutionError, match="instance"):
        app.execute(Kinds, "move", {"point": {"x": 1, "y": 2}})


def test_async_method_runs_in_execute_and_aexecute():
    app = application(Kinds)
    result = app.execute(Kinds(), "move", {"point": {"x": 1, "y": 2}, "dx": 5})
    assert result.success and result.value == Point(6, 2) and result.data == {"x": 6, "y": 2}
    awaited = asyncio.run(app.aexecute(Kinds(), "move", '{"point": {"x": 0, "y": 0}}'))
    assert awaited.value == Point(1, 0)


def test_execute_of_async_method_inside_a_running_loop_is_an_error():
    app = application(Kinds)

    async def inside() -> None:
        with pytest.raises(ExecutionError, match="aexecute"):
            app.execute(Kinds(), "move", {"point": {"x": 1, "y": 2}})

    asyncio.run(inside())


@dataclass
class Span:
    start: int
    end: int

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError("end comes before start")


@llm_application
class Calendar:
    """Spans."""

    def length(self, span: Span) -> int:
        """Length of a span."""
        return span.end - span.start


def test_python_refusing_valid_json_is_feedback_not_an_exception():
    app = application(Calendar)
    result = app.execute(Calendar(), "length", {"span": {"start": 5, "end": 1}})
    assert not result.success and result.error is None
    assert result.validation.errors[0].path.startswith("$input.span")
    assert "end comes before start" in result.feedback
    assert app.execute(Calendar(), "length", {"span": {"start": 1, "end": 5}}).value == 4


def test_message_is_what_goes_back_to_the_model(app, shop):
    found = app.execute(shop, "search", {"query": "pan"})
    assert (
        found.message()
        == '[{"sku": "KT-310", "name": "Cast-iron pan", "price": 45.0, "category": "kitchen"}]'
    )
    wrong = app.execute(shop, "search", {"query": 1})
    assert wrong.message() == wrong.feedback
    raised = app.execute(shop, "create_order", {"customer": ANN, "items": [{"sku": "ZZ-999"}]})
    assert raised.message().startswith("The function raised ValueError: unknown products: ZZ-999")
