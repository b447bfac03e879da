"""DynamicTree: a tree whose children sit under free keys (typia ``DynamicTree``)."""

from __future__ import annotations

from dataclasses import dataclass

from llmapp import llm_application


@dataclass
class Tree:
    """A node with named children.

    Attributes:
        children: Child trees by their id.
    """

    id: str
    sequence: int
    children: dict[str, Tree]


@llm_application
class DynamicTreeApplication:
    """Trees with free keys through the three catalogue methods."""

    def insert(self, first: Tree) -> None:
        """Store one tree.

        Args:
            first: The tree to store.
        """

    def reduce(self, first: Tree, second: Tree | None) -> Tree:
        """Keep the second tree when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Tree | None, second: Tree | None, third: Tree | None = None
    ) -> Tree | None:
        """The first tree given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = DynamicTreeApplication


def _tree(name: str, depth: int) -> dict[str, object]:
    children = {f"{name}-{i}": _tree(f"{name}-{i}", depth - 1) for i in range(2)} if depth else {}
    return {"id": name, "sequence": depth, "children": children}


SAMPLE = _tree("root", 2)

SPOILERS = [
    (("children", "root-0", "id"), None, [('$input.children["root-0"].id', "string")]),
    (
        ("children", "root-1", "children", "root-1-0", "sequence"),
        "one",
        [('$input.children["root-1"].children["root-1-0"].sequence', "integer")],
    ),
    (("children", "leaf"), 1, [("$input.children.leaf", "Tree")]),
]


def check_python(value: Tree) -> None:
    """Every value of the free-key dict is a Tree."""
    child = value.children["root-1"]
    assert isinstance(child, Tree) and isinstance(child.children["root-1-0"], Tree)
