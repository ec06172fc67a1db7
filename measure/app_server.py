"""The app as a server process, for a program that drives it in a browser (the load measurement, the browser tests):
`streamlit run ui/serve.py` on a free port, started and waited for, its output in a log file."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class AppDidNotStart(RuntimeError):
    """The server exited or did not answer its health check in time; the message holds its log's end."""


def free_port() -> int:
    """A TCP port free on this machine right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(data: Path, log: Path, *, env: dict | None = None, address: str = "127.0.0.1",
              cwd: Path = ROOT, port: int | None = None, timeout_s: float = 120) -> tuple[subprocess.Popen, str]:
    """The app serving data (DATA_DIR) on address and port (None: a free one), started in cwd (where Streamlit reads
    .streamlit/), answering its health check; returns the process (a session of its own: kill its group to stop
    everything it started) and the loopback address to open."""
    port = port or free_port()
    handle = open(log, "w")  # a file, not a pipe nobody reads (it would fill and block the server)
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "ui" / "serve.py"),
                             "--server.port", str(port), "--server.address", address, "--server.headless", "true",
                             "--browser.gatherUsageStats", "false"],
                            cwd=cwd, env={**os.environ, "DATA_DIR": str(data), **(env or {})},
                            stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and proc.poll() is None:
        with contextlib.suppress(OSError):
            if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                return proc, url
        time.sleep(0.5)
    proc.kill()
    raise AppDidNotStart(f"the app did not start (exit {proc.poll()}): " + log.read_text(errors="replace")[-2000:])
