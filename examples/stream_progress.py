"""A live view of a tool call while the model writes it, and a stop at its first mistake.

The "model" below writes the arguments of a ``book_trip`` call a few characters at a time,
as a vendor's stream hands them over. ``llmapp.stream`` reads each piece as it comes:
``partial`` holds every field whose value is complete, so a person watching sees one
line per field as the model finishes it; ``feed`` returns a mistake as soon as no
continuation can mend it, and the second call below is stopped there (the generation
after it need not be paid for) and answered with the feedback.

Run: ``python examples/stream_progress.py``
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from annotated_types import Ge, Le

import llmapp
from llmapp import application, llm_application


@llm_application
class Travel:
    def book_trip(
        self,
        traveller: str,
        destination: str,
        nights: Annotated[int, Ge(1), Le(30)],
        cabin: Literal["economy", "business"],
        notes: str = "",
    ) -> str:
        """Book a trip."""
        return f"booked {nights} nights in {destination} for {traveller}"


def model_writes(arguments: dict[str, Any], size: int = 6) -> Iterator[str]:
    """The argument text, ``size`` characters at a time, as a streaming model writes it."""
    text = json.dumps(arguments)
    for start in range(0, len(text), size):
        time.sleep(0.01)
        yield text[start : start + size]


def watch(app: Any, name: str, deltas: Iterator[str]) -> None:
    print(f"\n{name}(...)")
    stream = llmapp.stream(app.function(name))
    shown: set[str] = set()
    for delta in deltas:
        mistakes = stream.feed(delta)
        for field, value in (stream.partial or {}).items():
            if field not in shown:
                shown.add(field)
                print(f"  {field:12} {value!r}   ({stream.length} characters so far)")
        if mistakes:
            print(f"  stopped after {stream.length} characters: ", end="")
            print("; ".join(f"{m.path} should be {m.expected}" for m in mistakes))
            print("\n" + stream.feedback())
            return
    answer = stream.finish()
    if isinstance(answer, llmapp.CallResult):  # wrong, cut off or unreadable
        print(answer.feedback)
    else:
        print("  ->", app.execute(Travel(), name, stream.text).value)


def main() -> None:
    app = application(Travel)
    right = {"traveller": "Ada", "destination": "Lisbon", "nights": 4, "cabin": "economy",
             "notes": "a room with a view of the river, on a quiet floor if possible"}  # fmt: skip
    watch(app, "book_trip", model_writes(right))
    wrong = {**right, "nights": 45, "cabin": "first"}
    watch(app, "book_trip", model_writes(wrong))


if __name__ == "__main__":
    main()
