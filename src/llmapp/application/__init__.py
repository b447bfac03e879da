"""The decorator, the application and its functions, and safe execution."""
