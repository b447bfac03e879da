"""What executing one function call returns, and the one text to send back to the model.

The text of an exception a method raised is masked, then cut to ``_MAX_ERROR`` characters:
the model reads what went wrong, never a whole traceback or dump.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from llmapp import convert
from llmapp._limits import cut
from llmapp._records.frozen import quick_init
from llmapp._results import ValidationFailure
from llmapp._text.unicode import encodable
from llmapp.kernel._mask import NOTHING, Masker

if TYPE_CHECKING:
    from llmapp.kernel._question import Approval

__all__ = ["CallResult", "error_text"]

_MAX_ERROR: Final = 1_000


@quick_init
@dataclass(frozen=True)
class CallResult:
    """The outcome of one call the LLM asked for.

    Attributes:
        name: the function the LLM named (cut when absurdly long).
        success: the arguments were right and the method returned without raising.
        value: what the method returned (its Python value).
        data: the same as JSON-ready data, to send back to the model.
        validation: the failed validation, when the arguments were wrong.
        feedback: text for the model when the call failed, for any reason: wrong or
            unreadable arguments, or the method's error (its bounded message); ``None``
            on success.
        error: the exception the method raised, or ``None``.
        deprecated: the function is deprecated (it still ran).
        repairs: what ``parse`` repaired in the model's text to read it (log or refuse
            them as you see fit); empty for valid JSON or arguments given as a mapping.
        approval: the call awaits a human's approval (the method has not run): what to
            show the human; run it again with ``approved=True`` once approved.

    Example::

        result = app.execute(shop, "search", text)
        reply = result.message()   # the one text to send back, in every case
    """

    name: str
    success: bool
    value: Any = None
    data: Any = None
    validation: ValidationFailure | None = None
    feedback: str | None = None
    error: BaseException | None = None
    deprecated: bool = False
    repairs: tuple[str, ...] = ()
    approval: Approval | None = None

    def message(self) -> str:
        """The text for the model's tool-result message, in every case.

        The feedback when the call failed (wrong arguments, or the method's error), the
        returned data as JSON otherwise (``convert.json_text``: always valid JSON, NaN as
        ``null``, an int too long for Python's digit limit as a string). Built from the
        model's own arguments only, never from human-side values; always encodable as
        UTF-8 (a lone surrogate is written as its escape, ``\\ud800``); never raises.
        """
        if self.feedback is not None:
            return encodable(self.feedback)
        if self.error is not None:
            return error_text(self.error)
        return convert.json_text(self.data)


def error_text(error: BaseException, hidden: Masker = NOTHING) -> str:
    """``The function raised Kind: message``, cut to a bounded length, never raising.

    Args:
        error: the exception the method raised.
        hidden: what must not reach the model (the call's human-side values, a door's
            secrets): every form of them is replaced by ``***`` (``Masker``).
    """
    try:
        text = str(error)
    except Exception:  # an exception whose __str__ raises must not break the reply
        text = ""
    # Masked before it is cut, so a value at the cut is masked whole, not left half shown;
    # cut generously first, so the cost stays bounded whatever the exception says.
    text = cut(hidden.mask(text[: _MAX_ERROR * 4]), _MAX_ERROR)
    kind = type(error).__name__
    reply = f"The function raised {kind}: {text}" if text else f"The function raised {kind}."
    return encodable(reply)
