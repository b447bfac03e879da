"""Toolsets for the agent frameworks: any application's functions as each framework's own tools.

One module per framework, each importing its framework when it is imported itself (never
by ``import llmapp`` or ``import llmapp.agents``), each taking what ``_bound.bind`` reads:
``(app, target)``, ``(app, target, functions)`` or an iterable of these, for class, HTTP
and MCP applications alike. Every call goes through the application's own ``execute`` /
``aexecute`` (parse, repair, validate, merge the human side, run), and a wrong call is
answered with llmapp's feedback in the form the framework retries on:

- ``llmapp.agents.openai_agents.tools(...)``: OpenAI Agents SDK ``FunctionTool``s;
- ``llmapp.agents.pydantic_ai.toolset(...)``: a pydantic-ai toolset raising ``ModelRetry``;
- ``llmapp.agents.langchain.tools(...)``: LangChain ``BaseTool``s raising ``ToolException``;
- ``llmapp.agents.fastmcp.add_tools(server, ...)``: tools added to a FastMCP server;
- ``llmapp.agents.llamaindex.tools(...)``: LlamaIndex ``FunctionTool``-family tools.

They sit beside ``llmapp.vendors`` (the SDKs' wire formats) as sinks of the same function
model: the schema shown is always the model's side (``separated.llm``).
"""
