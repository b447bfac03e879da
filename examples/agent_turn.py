"""A full agent turn without a network: scripted model tool calls, some wrong, run through llmapp.

The "model" below is a list of the tool calls a model made over one turn, as
the raw argument text vendors hand back. Each goes through
``LlmApplication.execute``: wrong arguments never reach the shop; the model
gets feedback with every mistake marked, and its corrected retry succeeds.

Run: ``python examples/agent_turn.py``
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from llmapp import application
from shop import Shop

SCRIPT: list[tuple[str, str]] = [
    # A typo in the function name.
    ("serach", '{"query": "shears"}'),
    # Right function; the model wraps its JSON in a fence.
    ("search", '```json\n{"query": "shears", "category": "garden"}\n```'),
    # Three mistakes: a bad e-mail, a quantity of 0, an unknown priority.
    (
        "create_order",
        '{"customer": {"name": "Ann Lee", "email": "ann.example.com"},'
        ' "items": [{"sku": "GD-221", "quantity": 0}], "priority": "urgent"}',
    ),
    # The retry after feedback: a string quantity and a trailing comma, both repaired.
    (
        "create_order",
        '{"customer": {"name": "Ann Lee", "email": "ann@example.com"},'
        ' "items": [{"sku": "GD-221", "quantity": "2"}], "priority": "high",}',
    ),
    # The model tries to send the file itself: only the user may.
    ("attach_receipt", '{"order_id": "{order}", "title": "Till receipt", "file": "JVBERi0="}'),
    ("attach_receipt", '{"order_id": "{order}", "title": "Till receipt"}'),
]


def main() -> None:
    app = application(Shop)
    shop = Shop()
    order_id = ""
    uploaded = {"file": base64.b64decode("JVBERi0xLjcKcmVjZWlwdA==")}
    for step, (name, text) in enumerate(SCRIPT, start=1):
        text = text.replace("{order}", order_id)
        human = uploaded if name == "attach_receipt" else None
        print(f"--- call {step}: {name}({text})")
        result = app.execute(shop, name, text, human=human)
        if result.success:
            print("result:", json.dumps(result.data, indent=2))
            if name == "create_order":
                order_id = result.data["id"]
        elif result.feedback is not None:
            print("feedback to the model:\n" + result.feedback)
        else:
            print(f"the method raised {result.error!r}")
        print()


if __name__ == "__main__":
    main()
