"""Chat models the loop can ask: Ollama, an OpenAI-compatible server, or a GGUF file run in-process.

chat_model       picks and builds the chat model the settings name (make_chat_model), or says how to get one
openai_chat      the OpenAI-compatible provider (vLLM, llama.cpp's server, ...)
llamacpp_model   one loaded GGUF per process, its prompt rendering and what its KV cache keeps
llamacpp_chat    the in-process chat model over it (LlamaCppChat)
llamacpp_batch   several samples of one prompt decoded together in one context

The GGUF files themselves (catalog, pull, verify) are agent.models, a CLI of its own.
"""
