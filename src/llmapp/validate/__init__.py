"""Stage 3: LLM schema -> generated validator that reports every mistake."""
