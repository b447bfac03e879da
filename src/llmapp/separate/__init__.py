"""Split a parameters schema into what the LLM composes and what a human supplies; merge them back."""
