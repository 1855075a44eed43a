"""pagechat: a streaming, tool-using, page-aware LLM assistant for web applications."""

__version__ = "0.1.0"

__all__ = ["__version__"]
