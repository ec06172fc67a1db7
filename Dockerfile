# The app image: Python 3.11, llama-cpp-python compiled for CPUs without AMX, run as a non-root user.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1

# bubblewrap isolates sandboxed code where the container may use it; the compilers build llama-cpp-python.
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap build-essential cmake curl \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
# The same flags as run.sh: a native build turns on AMX and dies with SIGILL on CPUs without it.
RUN CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
    pip install --no-cache-dir -r requirements.txt

COPY . .
# The project as a package, like run.sh: the CLIs on the PATH, the same code on every Ray node of a Compose cluster.
RUN pip install --no-cache-dir --no-deps .
RUN useradd --create-home --uid 10001 app && mkdir -p /data && chown app:app /data
USER app
ENV DATA_DIR=/data MODELS_DIR=/data/models

EXPOSE 8501
HEALTHCHECK --interval=15s --timeout=5s --retries=5 CMD curl -fsS http://localhost:8501/_stcore/health || exit 1
# The container listens on all its interfaces; whether that is safe is Compose's port mapping (APP_PUBLISHED_ON).
CMD ["streamlit", "run", "ui/serve.py", "--server.port=8501", "--server.address=0.0.0.0"]
