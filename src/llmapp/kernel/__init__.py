"""The call kernel: what a door needs to turn a model's call into an answer, by public names.

A door (the class door in ``llmapp.app``, the OpenAPI door in ``llmapp.http``, the MCP
door in ``llmapp.mcp``, or a fourth one) and a sink (the vendor exports, the toolsets,
the MCP server) build on these steps, in this order:

- read the model's text and find the function: ``read_arguments``, ``unknown_function``;
- the function record: ``Function`` (origin-neutral), ``LlmFunction`` (a method's),
  ``Separated`` (the model's and the human's sides), ``FunctionTable`` (functions by
  name), ``OnFirstUse`` / ``compile_validator`` (checkers compiled when first needed);
- check the model's side: ``check_arguments`` gives ``Checked`` or a failure
  (``failed``, ``too_deep_refusal``); ``model_side`` / ``ModelSide`` is what the model sees;
- join the human's values: ``join``, ``merge_parameters``, ``separation``, ``refusals``;
- mask and log: ``Masker``, ``NOTHING``, ``log_call``, ``log_raised``, ``log_to_stderr``
  and the door tags ``HTTP`` / ``MCP``; ``sending`` / ``sent_parameters`` for what a
  door sends on;
- run with limits: ``Runner``, ``Controls`` / ``controls``, ``Approval``, ``CallContext``;
- answer: ``CallResult``, ``error_text``, ``for_model`` and ``MAX_MESSAGE`` (the answer
  the model is shown), and the content types (``Image``, ``Audio``, ``ResourceLink``,
  ``EmbeddedResource``, ``describe``, ``is_content``, ``block`` / ``blocks``...).

The names load on first use (PEP 562), so importing the kernel costs nothing until a
door calls it. The code lives in ``llmapp.app``'s modules today; this package is its
public address, which other packages import instead of those private modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from llmapp.app._arguments import read_arguments, unknown_function
    from llmapp.app._config import SchemaPredicate
    from llmapp.app._content import (
        CONTENT_TYPES,
        Audio,
        EmbeddedResource,
        Image,
        ResourceLink,
        block,
        blocks,
        describe,
        from_blocks,
        is_content,
        resource_contents,
        returns_content,
    )
    from llmapp.app._controls import Approval, CallContext, Controls, controls
    from llmapp.app._function import (
        Function,
        LlmFunction,
        OnFirstUse,
        Separated,
        compile_validator,
        llm_parameters,
        run_hook,
    )
    from llmapp.app._kernel import (
        Checked,
        ModelSide,
        check_arguments,
        failed,
        model_side,
        too_deep_refusal,
    )
    from llmapp.app._log import HTTP, MCP, log_call, log_raised, log_to_stderr
    from llmapp.app._mask import NOTHING, Masker
    from llmapp.app._merge import join, merge_parameters
    from llmapp.app._result import CallResult, error_text
    from llmapp.app._runner import Runner
    from llmapp.app._sent import sending, sent_parameters
    from llmapp.app._separation import refusals, separation
    from llmapp.app._shown import MAX_MESSAGE, for_model
    from llmapp.app._table import FunctionTable

_HOMES = {
    "read_arguments": "llmapp.app._arguments",
    "unknown_function": "llmapp.app._arguments",
    "SchemaPredicate": "llmapp.app._config",
    "Audio": "llmapp.app._content",
    "CONTENT_TYPES": "llmapp.app._content",
    "EmbeddedResource": "llmapp.app._content",
    "Image": "llmapp.app._content",
    "ResourceLink": "llmapp.app._content",
    "block": "llmapp.app._content",
    "blocks": "llmapp.app._content",
    "describe": "llmapp.app._content",
    "from_blocks": "llmapp.app._content",
    "is_content": "llmapp.app._content",
    "resource_contents": "llmapp.app._content",
    "returns_content": "llmapp.app._content",
    "Approval": "llmapp.app._controls",
    "CallContext": "llmapp.app._controls",
    "Controls": "llmapp.app._controls",
    "controls": "llmapp.app._controls",
    "Function": "llmapp.app._function",
    "LlmFunction": "llmapp.app._function",
    "OnFirstUse": "llmapp.app._function",
    "Separated": "llmapp.app._function",
    "compile_validator": "llmapp.app._function",
    "llm_parameters": "llmapp.app._function",
    "run_hook": "llmapp.app._function",
    "Checked": "llmapp.app._kernel",
    "ModelSide": "llmapp.app._kernel",
    "check_arguments": "llmapp.app._kernel",
    "failed": "llmapp.app._kernel",
    "model_side": "llmapp.app._kernel",
    "too_deep_refusal": "llmapp.app._kernel",
    "HTTP": "llmapp.app._log",
    "MCP": "llmapp.app._log",
    "log_call": "llmapp.app._log",
    "log_raised": "llmapp.app._log",
    "log_to_stderr": "llmapp.app._log",
    "NOTHING": "llmapp.app._mask",
    "Masker": "llmapp.app._mask",
    "join": "llmapp.app._merge",
    "merge_parameters": "llmapp.app._merge",
    "CallResult": "llmapp.app._result",
    "error_text": "llmapp.app._result",
    "Runner": "llmapp.app._runner",
    "sending": "llmapp.app._sent",
    "sent_parameters": "llmapp.app._sent",
    "refusals": "llmapp.app._separation",
    "separation": "llmapp.app._separation",
    "MAX_MESSAGE": "llmapp.app._shown",
    "for_model": "llmapp.app._shown",
    "FunctionTable": "llmapp.app._table",
}

__getattr__, __dir__ = _lazy_names(__name__, _HOMES)

__all__ = [
    "CONTENT_TYPES",
    "HTTP",
    "MAX_MESSAGE",
    "MCP",
    "NOTHING",
    "Approval",
    "Audio",
    "CallContext",
    "CallResult",
    "Checked",
    "Controls",
    "EmbeddedResource",
    "Function",
    "FunctionTable",
    "Image",
    "LlmFunction",
    "Masker",
    "ModelSide",
    "OnFirstUse",
    "ResourceLink",
    "Runner",
    "SchemaPredicate",
    "Separated",
    "block",
    "blocks",
    "check_arguments",
    "compile_validator",
    "controls",
    "describe",
    "error_text",
    "failed",
    "for_model",
    "from_blocks",
    "is_content",
    "join",
    "llm_parameters",
    "log_call",
    "log_raised",
    "log_to_stderr",
    "merge_parameters",
    "model_side",
    "read_arguments",
    "refusals",
    "resource_contents",
    "returns_content",
    "run_hook",
    "sending",
    "sent_parameters",
    "separation",
    "too_deep_refusal",
    "unknown_function",
]
