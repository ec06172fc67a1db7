"""Provider choice and outages: every failure names the URL or the command that fixes it."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from agent import ModelUnavailable, RunFinished, Settings, Token, load_settings, make_chat_model, make_solver
from ports import free_port


@pytest.fixture
def fake_ollama():
    """A loopback HTTP server that answers /api/tags like Ollama with one pulled model."""
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"models": [{"name": "llama3:latest"}, {"name": "qwen2.5-coder:7b"}]}).encode()
            self.send_response(200 if self.path == "/api/tags" else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


ANSWER = "```python\ndef add(a, b):\n    return a + b\n```"
USAGE = {"prompt_tokens": 57, "completion_tokens": 19, "total_tokens": 76}


def _fake_openai(streams_usage: bool) -> tuple[HTTPServer, list[dict]]:
    """A loopback OpenAI-compatible server that answers every chat with ANSWER and USAGE, in a stream (a few
    pieces, then a usage chunk if asked for one and streams_usage) or whole; it keeps every request body."""
    requests: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self._send(200, "application/json", json.dumps({"object": "list", "data": [{"id": "m"}]}).encode())

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            requests.append(body)
            text = "OK" if body.get("max_tokens") == 1 else ANSWER
            head = {"id": "c1", "created": 0, "model": body["model"]}
            if not body.get("stream"):
                message = {"role": "assistant", "content": text}
                reply = {**head, "object": "chat.completion", "usage": USAGE,
                         "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
                self._send(200, "application/json", json.dumps(reply).encode())
                return
            pieces = [{"role": "assistant", "content": ""}, *({"content": text[i:i + 8]} for i in range(0, 99, 8))]
            chunks = [{"choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in pieces]
            chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            if streams_usage and (body.get("stream_options") or {}).get("include_usage"):
                chunks.append({"choices": [], "usage": USAGE})
            events = "".join(f"data: {json.dumps({**head, 'object': 'chat.completion.chunk', **c})}\n\n"
                             for c in chunks)
            self._send(200, "text/event-stream", (events + "data: [DONE]\n\n").encode())

        def _send(self, status: int, kind: str, body: bytes):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return HTTPServer(("127.0.0.1", 0), Handler), requests


@pytest.fixture(params=[True, False], ids=["streams-usage", "no-usage-in-streams"])
def fake_openai(request):
    """(base URL, request bodies, whether its streams carry usage): like vLLM, or like llama-cpp-python's server."""
    server, requests = _fake_openai(request.param)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/v1", requests, request.param
    server.shutdown()


@pytest.fixture
def fake_gguf(tmp_path):
    path = tmp_path / "tiny.gguf"
    path.write_bytes(b"GGUF" + b"\0" * 64)
    return path


def test_ollama_unreachable_names_the_url():
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ModelUnavailable, match="not reachable at " + url) as info:
        make_chat_model(Settings(provider="ollama", ollama_base_url=url))
    assert "ollama serve" in str(info.value)


def test_ollama_model_not_pulled_gives_the_pull_command(fake_ollama):
    with pytest.raises(ModelUnavailable, match=r"Run `ollama pull qwen2.5-coder:1.5b`"):
        make_chat_model(Settings(provider="ollama", ollama_base_url=fake_ollama))


def test_ollama_model_present_sets_num_ctx(fake_ollama):
    model, spec = make_chat_model(Settings(provider="ollama", model="qwen2.5-coder:7b",
                                             ollama_base_url=fake_ollama, num_ctx=4096))
    assert spec.provider == "ollama" and model.num_ctx == 4096 and model.model == "qwen2.5-coder:7b"


def test_auto_prefers_ollama_when_it_has_the_model(fake_ollama, fake_gguf):
    _, spec = make_chat_model(Settings(model="llama3", ollama_base_url=fake_ollama,
                                         llamacpp_model_path=str(fake_gguf)))
    assert spec.provider == "ollama"


def test_auto_falls_back_to_embedded_and_says_why(fake_ollama, fake_gguf):
    _, spec = make_chat_model(Settings(ollama_base_url=fake_ollama, llamacpp_model_path=str(fake_gguf)))
    assert spec.provider == "llamacpp" and spec.model == "tiny.gguf"
    assert "not pulled" in spec.reason


def test_embedded_model_missing_gives_the_pull_command(tmp_path, monkeypatch):
    monkeypatch.setenv("MODELS_DIR", str(tmp_path))
    with pytest.raises(ModelUnavailable, match=r"python -m agent.models pull qwen2.5-coder-0.5b"):
        make_chat_model(Settings(provider="llamacpp"))


@pytest.mark.parametrize("name", ["qwen2.5-coder-0.5b-q8_0", "qwen2.5-coder-0.5b-instruct-q8_0.gguf"])
def test_embedded_q8_0_by_name_says_where_to_put_it(tmp_path, monkeypatch, name):
    """LLM_MODEL names the Q8_0 that no index holds: the error names the file, the folder and where to get it."""
    monkeypatch.setenv("MODELS_DIR", str(tmp_path))
    monkeypatch.setenv("LLM_PROVIDER", "llamacpp")
    monkeypatch.setenv("LLM_MODEL", name)
    with pytest.raises(ModelUnavailable) as info:
        make_chat_model(load_settings())
    message = str(info.value)
    assert "qwen2.5-coder-0.5b-instruct-q8_0.gguf" in message and str(tmp_path) in message
    assert "Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF" in message


def test_embedded_model_by_name_resolves_in_models_dir(tmp_path, monkeypatch):
    """A catalog name put in place by hand resolves to its file in MODELS_DIR (resolution only: nothing is loaded)."""
    import hashlib

    from agent.models.catalog import CATALOG, ModelSpec
    from agent.providers.chat_model import gguf_path

    data = b"GGUF" + b"\0" * 60
    spec = ModelSpec(name="tiny-q8", filename="tiny-q8.gguf", parts=(), size=len(data),
                     sha256=hashlib.sha256(data).hexdigest(), source="nowhere")
    monkeypatch.setitem(CATALOG, spec.name, spec)
    monkeypatch.setenv("MODELS_DIR", str(tmp_path))
    (tmp_path / spec.filename).write_bytes(data)
    monkeypatch.setenv("LLM_MODEL", spec.name)
    assert gguf_path(load_settings()) == tmp_path / spec.filename
    monkeypatch.setenv("LLAMACPP_MODEL_PATH", spec.filename)  # a bare file name there too
    assert gguf_path(load_settings()) == tmp_path / spec.filename


def test_embedded_model_path_that_is_not_gguf(tmp_path):
    bad = tmp_path / "x.gguf"
    bad.write_text("not a model")
    with pytest.raises(ModelUnavailable, match="GGUF"):
        make_chat_model(Settings(provider="llamacpp", llamacpp_model_path=str(bad)))


def test_openai_server_down_names_the_url():
    url = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(ModelUnavailable, match=url):
        make_chat_model(Settings(provider="openai", model="qwen", openai_base_url=url))
    with pytest.raises(ModelUnavailable, match="needs LLM_MODEL"):
        make_chat_model(Settings(provider="openai"))


def test_openai_answers_are_counted_whether_or_not_the_server_streams_usage(fake_openai, tmp_path):
    url, requests, streams_usage = fake_openai
    solver = make_solver(Settings(provider="openai", model="m", openai_base_url=url, data_dir=tmp_path,
                                  max_tokens=200))
    assert ("not streamed" in solver.model_spec.reason) is not streams_usage
    events = list(solver.start("Write a function add(a, b) that returns the sum of a and b.",
                               "assert add(1, 2) == 3\n"))
    assert isinstance(events[-1], RunFinished) and events[-1].status == "passed"
    [candidate] = solver.candidates(events[-1].thread_id)
    assert (candidate.tokens_in, candidate.tokens_out) == (USAGE["prompt_tokens"], USAGE["completion_tokens"])
    # The graph streams: a server that streams usage is asked for it in a stream; one that does not (found by
    # a one-token probe) is asked without streaming, and its answer still reaches the timeline, whole.
    probe, asked = requests
    assert probe["max_tokens"] == 1 and probe["stream_options"] == {"include_usage": True}
    assert asked["stream"] is streams_usage and bool(asked.get("stream_options")) is streams_usage
    assert "".join(e.text for e in events if isinstance(e, Token)) == ANSWER
    # The cap goes as max_tokens, the name every OpenAI-compatible server reads (llama-cpp-python's reads no other).
    assert asked["max_tokens"] <= 200 and "max_completion_tokens" not in asked
    # The probe is asked once per server and model in a process.
    make_chat_model(Settings(provider="openai", model="m", openai_base_url=url))
    assert len(requests) == 2


def test_settings_from_environment(monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "Ollama")
    monkeypatch.setenv("BUDGET", "6")
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://ollama:11434/")
    settings = load_settings()
    assert (settings.provider, settings.search.budget, settings.ollama_base_url) == ("ollama", 6, "http://ollama:11434")
    monkeypatch.setenv("BUDGET", "three")
    with pytest.raises(ValueError, match="BUDGET must be a whole number"):
        load_settings()
    monkeypatch.setenv("BUDGET", "3")
    monkeypatch.setenv("LLM_PROVIDER", "gpt")
    with pytest.raises(ValueError, match="LLM_PROVIDER must be"):
        load_settings()


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agent", *args], capture_output=True, text=True, timeout=300,
                          env=env)


def test_cli_bad_input_exits_2_with_one_line(tmp_path):
    tests = tmp_path / "t.py"
    tests.write_text("assert add(1, 2) == 3\nassert add(1,, 2)\n")
    broken = _cli("solve", "--task", "add numbers", "--tests", f"@{tests}")
    assert broken.returncode == 2 and "line 2" in broken.stderr and len(broken.stderr.strip().splitlines()) == 1
    tests.write_text("assert add(1, 2) == 3\n")
    empty = _cli("solve", "--task", " ", "--tests", f"@{tests}")
    assert empty.returncode == 2 and "task is empty" in empty.stderr
    missing = _cli("solve", "--task", "x", "--tests", "@/nonexistent/tests.py")
    assert missing.returncode == 2 and "cannot read the tests file" in missing.stderr


def test_cli_ollama_down_exits_2_naming_the_url(tmp_path):
    tests = tmp_path / "t.py"
    tests.write_text("assert add(1, 2) == 3\n")
    url = f"http://127.0.0.1:{free_port()}"
    env = {**__import__("os").environ, "OLLAMA_BASE_URL": url}
    down = _cli("solve", "--task", "add numbers", "--tests", f"@{tests}", "--provider", "ollama", env=env)
    assert down.returncode == 2 and url in down.stderr
