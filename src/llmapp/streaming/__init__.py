"""Streaming tool calls: a call's arguments checked while the model is still writing them.

``stream(function)`` gives an ``ArgumentStream`` for one call of any function (a class
method, an OpenAPI operation, an MCP tool): ``feed(delta)`` returns the mistakes that
became definite with that piece of text, ``partial`` is the value read so far, and
``finish()`` is the call step's answer for the whole text. The vendor helpers
(``llmapp.streaming.openai``, ``.anthropic``, ``.gemini``) read each SDK's own stream
events and yield, per tool call, its name, each definite mistake and its result.
"""

from llmapp.streaming._arguments import ArgumentStream, stream
from llmapp.streaming._events import CallFinished, CallMistake, CallStarted, StreamEvent

__all__ = [
    "ArgumentStream",
    "CallFinished",
    "CallMistake",
    "CallStarted",
    "StreamEvent",
    "stream",
]
