"""Plain hand-written validators for the S/M/L types: the pure-Python limit.

Written the way a careful person would by hand for speed: a boolean pass of
``type(...) is`` checks first (no path is formatted, nothing is allocated, keys
read by indexing inside one ``try``), and
only when it fails a second pass that collects every error with its path, which
skips the sub-objects the boolean check accepts (so paths are only formatted
along the way to a mistake). A
generated validator cannot do much better in pure Python, so llmapp's target is
to stay within 1.25x of these.
"""

from __future__ import annotations

from typing import Any

__all__ = ["HANDWRITTEN"]


class Issue:
    """One error, as a hand-written validator would record it (a plain slotted object)."""

    __slots__ = ("expected", "path", "value")

    def __init__(self, path: str, expected: str, value: Any) -> None:
        self.path, self.expected, self.value = path, expected, value

    def __repr__(self) -> str:
        return f"Issue({self.path!r}, {self.expected!r}, {self.value!r})"


Errors = list[Issue]


class _Missing:
    def __repr__(self) -> str:
        return "undefined"


_MISSING = _Missing()


def _is_int(value: Any) -> bool:
    return type(value) is int or (type(value) is float and value.is_integer())


def _integral_float(value: Any) -> bool:
    """JSON Schema's integer also accepts 3.0 (checked only once ``type(v) is int`` failed)."""
    return type(value) is float and value.is_integer()


def _is_number(value: Any) -> bool:
    return type(value) is int or type(value) is float


def _extra_keys(data: dict[str, Any], allowed: frozenset[str], path: str, errors: Errors) -> None:
    if len(data) > len(allowed) or not allowed.issuperset(data):
        for key in data:
            if key not in allowed:
                errors.append(Issue(f"{path}.{key}", "undefined", data[key]))


def _not_object(value: Any, path: str, expected: str, errors: Errors) -> bool:
    if type(value) is dict:
        return False
    errors.append(Issue(path, expected, value))
    return True


_SEARCH_KEYS = frozenset({"query", "limit", "exact"})


def _is_search(data: Any) -> bool:
    if type(data) is not dict or len(data) != 3:  # every key is required: 3 keys, no extra
        return False
    try:
        query, limit, exact = data["query"], data["limit"], data["exact"]
    except KeyError:
        return False
    return (
        type(query) is str
        and (type(limit) is int or _integral_float(limit))
        and 1 <= limit <= 100
        and type(exact) is bool
    )


def check_search(data: Any, path: str = "$input") -> Errors:
    if _is_search(data):
        return []
    errors: Errors = []
    if _not_object(data, path, "Search", errors):
        return errors
    query = data.get("query", _MISSING)
    if type(query) is not str:
        errors.append(Issue(f"{path}.query", "string", query))
    limit = data.get("limit", _MISSING)
    if not (_is_int(limit) and 1 <= limit <= 100):
        errors.append(Issue(f"{path}.limit", "integer & Minimum<1> & Maximum<100>", limit))
    exact = data.get("exact", _MISSING)
    if type(exact) is not bool:
        errors.append(Issue(f"{path}.exact", "boolean", exact))
    _extra_keys(data, _SEARCH_KEYS, path, errors)
    return errors


_CUSTOMER_KEYS = frozenset({"id", "name", "email", "vip"})
_ITEM_KEYS = frozenset({"sku", "quantity", "price", "tags"})
_ORDER_KEYS = frozenset({"id", "customer", "items", "priority", "note"})
_PRIORITIES = frozenset({"low", "normal", "high"})


def _is_customer(data: Any) -> bool:
    if type(data) is not dict or len(data) != 4:
        return False
    try:
        id_, name, email, vip = data["id"], data["name"], data["email"], data["vip"]
    except KeyError:
        return False
    return (
        (type(id_) is int or _integral_float(id_))
        and id_ >= 1
        and type(name) is str
        and 1 <= len(name) <= 80
        and type(email) is str
        and type(vip) is bool
    )


def _is_item(data: Any) -> bool:
    if type(data) is not dict or len(data) != 4:
        return False
    try:
        sku, quantity, price, tags = data["sku"], data["quantity"], data["price"], data["tags"]
    except KeyError:
        return False
    if not (
        type(sku) is str
        and 3 <= len(sku) <= 20
        and (type(quantity) is int or _integral_float(quantity))
        and 1 <= quantity <= 1000
        and (type(price) is float or type(price) is int)
        and price > 0
        and type(tags) is list
    ):
        return False
    for tag in tags:  # noqa: SIM110 (a loop is faster than all() over a generator)
        if type(tag) is not str:
            return False
    return True


def _is_order(data: Any) -> bool:
    if type(data) is not dict or len(data) != 5:
        return False
    try:
        id_, customer, items = data["id"], data["customer"], data["items"]
        priority, note = data["priority"], data["note"]
    except KeyError:
        return False
    if not (
        type(id_) is str
        and type(priority) is str
        and priority in _PRIORITIES
        and (note is None or type(note) is str)
        and type(items) is list
        and _is_customer(customer)
    ):
        return False
    for item in items:  # noqa: SIM110
        if not _is_item(item):
            return False
    return True


def _check_customer(data: Any, path: str, errors: Errors) -> None:
    if _not_object(data, path, "Customer", errors):
        return
    id_ = data.get("id", _MISSING)
    if not (_is_int(id_) and id_ >= 1):
        errors.append(Issue(f"{path}.id", "integer & Minimum<1>", id_))
    name = data.get("name", _MISSING)
    if not (type(name) is str and 1 <= len(name) <= 80):
        errors.append(Issue(f"{path}.name", "string & MinLength<1> & MaxLength<80>", name))
    email = data.get("email", _MISSING)
    if type(email) is not str:
        errors.append(Issue(f"{path}.email", "string", email))
    vip = data.get("vip", _MISSING)
    if type(vip) is not bool:
        errors.append(Issue(f"{path}.vip", "boolean", vip))
    _extra_keys(data, _CUSTOMER_KEYS, path, errors)


def _check_item(data: Any, path: str, errors: Errors) -> None:
    if _not_object(data, path, "Item", errors):
        return
    sku = data.get("sku", _MISSING)
    if not (type(sku) is str and 3 <= len(sku) <= 20):
        errors.append(Issue(f"{path}.sku", "string & MinLength<3> & MaxLength<20>", sku))
    quantity = data.get("quantity", _MISSING)
    if not (_is_int(quantity) and 1 <= quantity <= 1000):
        errors.append(Issue(f"{path}.quantity", "integer & Minimum<1> & Maximum<1000>", quantity))
    price = data.get("price", _MISSING)
    if not (_is_number(price) and price > 0):
        errors.append(Issue(f"{path}.price", "number & ExclusiveMinimum<0>", price))
    tags = data.get("tags", _MISSING)
    if type(tags) is list:
        for i, tag in enumerate(tags):
            if type(tag) is not str:
                errors.append(Issue(f"{path}.tags[{i}]", "string", tag))
    else:
        errors.append(Issue(f"{path}.tags", "Array<string>", tags))
    _extra_keys(data, _ITEM_KEYS, path, errors)


def check_order(data: Any, path: str = "$input") -> Errors:
    if _is_order(data):
        return []
    errors: Errors = []
    if _not_object(data, path, "Order", errors):
        return errors
    id_ = data.get("id", _MISSING)
    if type(id_) is not str:
        errors.append(Issue(f"{path}.id", "string", id_))
    customer = data.get("customer", _MISSING)
    if not _is_customer(customer):
        _check_customer(customer, f"{path}.customer", errors)
    items = data.get("items", _MISSING)
    if type(items) is list:
        for i, item in enumerate(items):
            if not _is_item(item):
                _check_item(item, f"{path}.items[{i}]", errors)
    else:
        errors.append(Issue(f"{path}.items", "Array<Item>", items))
    priority = data.get("priority", _MISSING)
    if type(priority) is not str or priority not in _PRIORITIES:
        errors.append(Issue(f"{path}.priority", '("low" | "normal" | "high")', priority))
    note = data.get("note", _MISSING)
    if note is not None and type(note) is not str:
        errors.append(Issue(f"{path}.note", "(string | null)", note))
    _extra_keys(data, _ORDER_KEYS, path, errors)
    return errors


_NODE_KEYS = frozenset({"name", "size", "kind", "children"})
_KINDS = frozenset({"dir", "file"})


def _is_node(data: Any) -> bool:
    if type(data) is not dict or len(data) != 4:
        return False
    try:
        name, size, kind, children = data["name"], data["size"], data["kind"], data["children"]
    except KeyError:
        return False
    if not (
        type(name) is str
        and (type(size) is int or _integral_float(size))
        and size >= 0
        and type(kind) is str
        and kind in _KINDS
        and type(children) is list
    ):
        return False
    for child in children:  # noqa: SIM110
        if not _is_node(child):
            return False
    return True


def _check_node(data: Any, path: str, errors: Errors) -> None:
    if _not_object(data, path, "Node", errors):
        return
    name = data.get("name", _MISSING)
    if type(name) is not str:
        errors.append(Issue(f"{path}.name", "string", name))
    size = data.get("size", _MISSING)
    if not (_is_int(size) and size >= 0):
        errors.append(Issue(f"{path}.size", "integer & Minimum<0>", size))
    kind = data.get("kind", _MISSING)
    if type(kind) is not str or kind not in _KINDS:
        errors.append(Issue(f"{path}.kind", '("dir" | "file")', kind))
    children = data.get("children", _MISSING)
    if type(children) is list:
        for i, child in enumerate(children):
            if not _is_node(child):
                _check_node(child, f"{path}.children[{i}]", errors)
    else:
        errors.append(Issue(f"{path}.children", "Array<Node>", children))
    _extra_keys(data, _NODE_KEYS, path, errors)


def check_tree(data: Any, path: str = "$input") -> Errors:
    if type(data) is dict and len(data) == 1 and _is_node(data.get("root")):
        return []
    errors: Errors = []
    if _not_object(data, path, "Tree", errors):
        return errors
    root = data.get("root", _MISSING)
    if not _is_node(root):
        _check_node(root, f"{path}.root", errors)
    _extra_keys(data, frozenset({"root"}), path, errors)
    return errors


HANDWRITTEN = {"search": check_search, "place_order": check_order, "save_tree": check_tree}
"""Targets method name -> hand-written validator returning every Issue (empty when valid)."""
