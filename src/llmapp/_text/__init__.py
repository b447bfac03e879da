"""Text that leaves llmapp safely: lone surrogates escaped (``unicode``), characters of a
third party's text that must not reach a model or a terminal (``untrusted``), and a
response body written into a message (``body``)."""
