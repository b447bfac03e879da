"""The call kernel: what a door needs to turn a model's call into an answer, by public names.

A door (the class door in ``llmapp.app``, the OpenAPI door in ``llmapp.http``, the MCP
door in ``llmapp.mcp``, or a fourth one) and a sink (the vendor exports, the toolsets,
the MCP server) build on these steps, in this order:

- read the model's text and find the function: ``read_arguments``, ``unknown_function``;
- the application: ``Application`` (the verbs every door has, its last step its own);
- the function record: ``Function`` (origin-neutral), ``LlmFunction`` (a method's),
  ``Separated`` (the model's and the human's sides), ``FunctionTable`` (functions by
  name), ``OnFirstUse`` / ``compile_validator`` (checkers compiled when first needed);
- check the model's side: ``check_arguments`` gives ``Checked`` or a failure
  (``failed``, ``too_deep_refusal``); ``model_side`` / ``ModelSide`` is what the model sees;
- join the human's values: ``join``, ``merge_parameters``, ``separation``, ``refusals``;
- mask and log: ``Masker``, ``NOTHING``, ``log_call``, ``log_raised``, ``log_to_stderr``
  and the door tags ``HTTP`` / ``MCP``; ``sending`` / ``sent_parameters`` for what a
  door sends on;
- run with limits: ``Runner`` (``Runner.awaited`` for a door's own awaited I/O),
  ``Controls`` / ``controls``, ``given_controls`` / ``FunctionControls`` (a builder's
  ``controls=``), ``Approval``, ``CallContext``, ``awaiting_approval`` (the
  answer a call gets until a human approves it, asked between checking and running);
- answer: ``CallResult``, ``error_text``, ``for_model`` and ``MAX_MESSAGE`` (the answer
  the model is shown), and the content types (``Image``, ``Audio``, ``ResourceLink``,
  ``EmbeddedResource``, ``describe``, ``is_content``, ``block`` / ``blocks``...).

The class door's own steps live here too, as the other doors will share them: its
configuration (``LlmConfig``, ``after_types``, ``ValidationHook``, ``bind_generated``,
``function_data``), a method's plan and prepared call (``Plan``, ``Call``, ``run_sync``,
``hooked``, ``DEFAULT_RUNNER``), the controls read at call time (``enabled``,
``visible``, ``declares``, ``declared_controls``, ``needs_approval``, ``admit``,
``time_limit``, ``run_within``) and the class door's logger (``APP``, ``DEBUG``).

The names load on first use (PEP 562), so importing the kernel costs nothing until a
door calls it. Other packages import these public names, never the private modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from llmapp.kernel._admit import admit, awaiting_approval
    from llmapp.kernel._application import Application
    from llmapp.kernel._arguments import read_arguments, unknown_function
    from llmapp.kernel._config import (
        LlmConfig,
        SchemaPredicate,
        ValidationHook,
        after_types,
        bind_generated,
    )
    from llmapp.kernel._content import (
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
    from llmapp.kernel._controls import (
        CallContext,
        Controls,
        controls,
        declared_controls,
        declares,
        enabled,
        needs_approval,
        time_limit,
        visible,
    )
    from llmapp.kernel._execute import Call, Fused, Plan, run_sync
    from llmapp.kernel._function import (
        Function,
        LlmFunction,
        OnFirstUse,
        Separated,
        compile_validator,
        function_data,
        llm_parameters,
        run_hook,
    )
    from llmapp.kernel._given import FunctionControls, given_controls
    from llmapp.kernel._kernel import (
        Checked,
        ModelSide,
        check_arguments,
        failed,
        hooked,
        model_side,
        too_deep_refusal,
    )
    from llmapp.kernel._log import APP, DEBUG, HTTP, MCP, log_call, log_raised, log_to_stderr
    from llmapp.kernel._mask import NOTHING, Masker
    from llmapp.kernel._merge import join, merge_parameters
    from llmapp.kernel._question import Approval
    from llmapp.kernel._result import CallResult, error_text
    from llmapp.kernel._runner import DEFAULT_RUNNER, Runner, run_within
    from llmapp.kernel._sent import sending, sent_parameters
    from llmapp.kernel._separation import refusals, separation
    from llmapp.kernel._shown import MAX_MESSAGE, for_model
    from llmapp.kernel._table import FunctionTable

_HOMES = {
    "Application": "llmapp.kernel._application",
    "read_arguments": "llmapp.kernel._arguments",
    "unknown_function": "llmapp.kernel._arguments",
    "LlmConfig": "llmapp.kernel._config",
    "SchemaPredicate": "llmapp.kernel._config",
    "ValidationHook": "llmapp.kernel._config",
    "after_types": "llmapp.kernel._config",
    "bind_generated": "llmapp.kernel._config",
    "CONTENT_TYPES": "llmapp.kernel._content",
    "Audio": "llmapp.kernel._content",
    "EmbeddedResource": "llmapp.kernel._content",
    "Image": "llmapp.kernel._content",
    "ResourceLink": "llmapp.kernel._content",
    "block": "llmapp.kernel._content",
    "blocks": "llmapp.kernel._content",
    "describe": "llmapp.kernel._content",
    "from_blocks": "llmapp.kernel._content",
    "is_content": "llmapp.kernel._content",
    "resource_contents": "llmapp.kernel._content",
    "returns_content": "llmapp.kernel._content",
    "Approval": "llmapp.kernel._question",
    "CallContext": "llmapp.kernel._controls",
    "Controls": "llmapp.kernel._controls",
    "FunctionControls": "llmapp.kernel._given",
    "given_controls": "llmapp.kernel._given",
    "admit": "llmapp.kernel._admit",
    "awaiting_approval": "llmapp.kernel._admit",
    "controls": "llmapp.kernel._controls",
    "declared_controls": "llmapp.kernel._controls",
    "declares": "llmapp.kernel._controls",
    "enabled": "llmapp.kernel._controls",
    "needs_approval": "llmapp.kernel._controls",
    "run_within": "llmapp.kernel._runner",
    "time_limit": "llmapp.kernel._controls",
    "visible": "llmapp.kernel._controls",
    "Call": "llmapp.kernel._execute",
    "Fused": "llmapp.kernel._execute",
    "Plan": "llmapp.kernel._execute",
    "run_sync": "llmapp.kernel._execute",
    "Function": "llmapp.kernel._function",
    "LlmFunction": "llmapp.kernel._function",
    "OnFirstUse": "llmapp.kernel._function",
    "Separated": "llmapp.kernel._function",
    "compile_validator": "llmapp.kernel._function",
    "function_data": "llmapp.kernel._function",
    "llm_parameters": "llmapp.kernel._function",
    "run_hook": "llmapp.kernel._function",
    "Checked": "llmapp.kernel._kernel",
    "ModelSide": "llmapp.kernel._kernel",
    "check_arguments": "llmapp.kernel._kernel",
    "failed": "llmapp.kernel._kernel",
    "hooked": "llmapp.kernel._kernel",
    "model_side": "llmapp.kernel._kernel",
    "too_deep_refusal": "llmapp.kernel._kernel",
    "APP": "llmapp.kernel._log",
    "DEBUG": "llmapp.kernel._log",
    "HTTP": "llmapp.kernel._log",
    "MCP": "llmapp.kernel._log",
    "log_call": "llmapp.kernel._log",
    "log_raised": "llmapp.kernel._log",
    "log_to_stderr": "llmapp.kernel._log",
    "NOTHING": "llmapp.kernel._mask",
    "Masker": "llmapp.kernel._mask",
    "join": "llmapp.kernel._merge",
    "merge_parameters": "llmapp.kernel._merge",
    "CallResult": "llmapp.kernel._result",
    "error_text": "llmapp.kernel._result",
    "DEFAULT_RUNNER": "llmapp.kernel._runner",
    "Runner": "llmapp.kernel._runner",
    "sending": "llmapp.kernel._sent",
    "sent_parameters": "llmapp.kernel._sent",
    "refusals": "llmapp.kernel._separation",
    "separation": "llmapp.kernel._separation",
    "MAX_MESSAGE": "llmapp.kernel._shown",
    "for_model": "llmapp.kernel._shown",
    "FunctionTable": "llmapp.kernel._table",
}

__getattr__, __dir__ = _lazy_names(__name__, _HOMES)

__all__ = [
    "APP",
    "CONTENT_TYPES",
    "DEBUG",
    "DEFAULT_RUNNER",
    "HTTP",
    "MAX_MESSAGE",
    "MCP",
    "NOTHING",
    "Application",
    "Approval",
    "Audio",
    "Call",
    "CallContext",
    "CallResult",
    "Checked",
    "Controls",
    "EmbeddedResource",
    "Function",
    "FunctionControls",
    "FunctionTable",
    "Fused",
    "Image",
    "LlmConfig",
    "LlmFunction",
    "Masker",
    "ModelSide",
    "OnFirstUse",
    "Plan",
    "ResourceLink",
    "Runner",
    "SchemaPredicate",
    "Separated",
    "ValidationHook",
    "admit",
    "after_types",
    "awaiting_approval",
    "bind_generated",
    "block",
    "blocks",
    "check_arguments",
    "compile_validator",
    "controls",
    "declared_controls",
    "declares",
    "describe",
    "enabled",
    "error_text",
    "failed",
    "for_model",
    "from_blocks",
    "function_data",
    "given_controls",
    "hooked",
    "is_content",
    "join",
    "llm_parameters",
    "log_call",
    "log_raised",
    "log_to_stderr",
    "merge_parameters",
    "model_side",
    "needs_approval",
    "read_arguments",
    "refusals",
    "resource_contents",
    "returns_content",
    "run_hook",
    "run_sync",
    "run_within",
    "sending",
    "sent_parameters",
    "separation",
    "time_limit",
    "too_deep_refusal",
    "unknown_function",
    "visible",
]
