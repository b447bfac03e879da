"""The SDKs' own types for what the vendor modules give and read, for type checkers only.

``tools()`` and ``call_tools()`` build plain dicts at run time (no SDK is imported); their
annotations name the SDK's own parameter types, so a loop such as
``client.chat.completions.create(tools=openai.tools(app))`` or
``messages += openai.call_tools(app, shop, completion)`` passes ``mypy --strict``
against the SDK installed beside llmapp. Where an SDK is not installed, a type checker
reads these names as ``Any``. Nothing here runs: every import sits under
``TYPE_CHECKING``, and the vendor modules import this one the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from anthropic.types import Message as AnthropicMessage
    from anthropic.types import ToolParam as AnthropicTool
    from anthropic.types import ToolResultBlockParam as AnthropicToolResult
    from anthropic.types import ToolSearchToolBm25_20251119Param, ToolSearchToolRegex20251119Param
    from google.genai.types import FunctionDeclarationDict as GeminiTool
    from google.genai.types import GenerateContentResponse as GeminiResponse
    from google.genai.types import PartDict as GeminiPart
    from openai.types.chat import ChatCompletion, ChatCompletionMessage
    from openai.types.chat import ChatCompletionFunctionToolParam as ChatTool
    from openai.types.chat import ChatCompletionToolMessageParam as ChatToolMessage
    from openai.types.responses import FunctionToolParam as ResponsesTool
    from openai.types.responses import Response
    from openai.types.responses import ToolSearchToolParam as ResponsesSearchTool
    from openai.types.responses.response_input_param import (
        FunctionCallOutput as ResponsesToolOutput,
    )

    AnthropicSearchTool = ToolSearchToolBm25_20251119Param | ToolSearchToolRegex20251119Param

__all__ = [
    "AnthropicMessage",
    "AnthropicSearchTool",
    "AnthropicTool",
    "AnthropicToolResult",
    "ChatCompletion",
    "ChatCompletionMessage",
    "ChatTool",
    "ChatToolMessage",
    "GeminiPart",
    "GeminiResponse",
    "GeminiTool",
    "Response",
    "ResponsesSearchTool",
    "ResponsesTool",
    "ResponsesToolOutput",
]
