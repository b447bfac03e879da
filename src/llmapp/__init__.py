"""llmapp: typed, validated LLM function-calling applications from Python classes."""
