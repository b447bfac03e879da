"""OpenAPI documents as LLM functions, each call executed as an HTTP request.

``application(document)`` reads a Swagger 2.0 / OpenAPI 3.0 / 3.1 document (a dict, a
path or text; JSON or YAML) and returns an ``HttpLlmApplication``: ``functions`` (one
``HttpLlmFunction`` per operation, with the attributes of a class application's
functions plus ``method``, ``path``, ``operation()`` and ``route()``) and ``errors``
(one ``OperationError`` per operation that could not be converted, located in the
document). The vendor exports take it like any application.

Executing (httpx, the ``http`` extra):

- ``Connection(host, headers=..., query=...)`` is checked when made (a header value with
  a newline is a ``ValueError`` naming the header); its ``deadline`` bounds a whole call,
  its ``max_body`` the decoded body, its ``max_message`` what the model is shown.
- ``execute(connection, function, arguments, *, human=None)`` returns the decoded 2xx
  body, raises ``ArgumentError`` (wrong arguments: nothing sent), ``HttpError``
  (status, headers, body) or ``ResponseError`` (a body past the bounds); ``propagate``
  returns an ``HttpResponse`` whatever the status; ``aexecute``/``apropagate`` are the
  async twins.
- ``HttpLlmApplication.execute(connection, name, arguments, human=None)`` (and
  ``aexecute``) never raises for the model's mistakes: it returns an ``llmapp.CallResult``
  with ``success``, ``data`` (the decoded body), ``feedback`` (wrong arguments, no
  request sent), ``error`` (an ``HttpError``, a ``ResponseError`` or an
  ``httpx.HTTPError``) and ``message()``, the text to send back, with every human-side
  value and every connection header, query and cookie value masked. So a vendor's
  ``call_tools(app, connection, response)`` runs HTTP functions with the connection
  as its target.

Example::

    from llmapp.http import Connection, application

    app = application("openapi.yaml")
    result = app.execute(Connection("http://127.0.0.1:8000"), "pets_getById", '{"id": 3}')
    reply = result.message()
"""

from __future__ import annotations

from llmapp.http._application import HttpLlmApplication, HttpLlmConfig, application
from llmapp.http._document import DocumentError, load
from llmapp.http._execute import (
    ArgumentError,
    Connection,
    HttpError,
    HttpResponse,
    ResponseError,
    aexecute,
    apropagate,
    execute,
    propagate,
)
from llmapp.http._function import Body, HttpLlmFunction, OperationError, Parameter, Route

__all__ = [
    "ArgumentError",
    "Body",
    "Connection",
    "DocumentError",
    "HttpError",
    "HttpLlmApplication",
    "HttpLlmConfig",
    "HttpLlmFunction",
    "HttpResponse",
    "OperationError",
    "Parameter",
    "ResponseError",
    "Route",
    "aexecute",
    "application",
    "apropagate",
    "execute",
    "load",
    "propagate",
]
