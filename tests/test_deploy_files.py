"""Static checks of what no engine here can run: the Compose files, the Dockerfile, the CI workflow.

tests/schemas/compose-spec.json is the Compose specification's JSON schema as shipped in the
docker-compose 1.29.2 wheel on PyPI (Apache-2.0).
"""

from __future__ import annotations

import importlib
import json
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

from agent.config import SEARCH_VARIABLES, Search
from sandbox.host_policy import build_policy
from sandbox.inside.confinement import confine
from sandbox.isolation import Isolation

ROOT = Path(__file__).resolve().parent.parent
# The sandbox's policy at each isolation a container may get, with the default packages.
CONTAINER_POLICIES = [build_policy(found, ("numpy",)) for found in (
    Isolation("bwrap", bwrap=True, user_namespace=True, landlock_abi=7, seccomp=True),
    Isolation("bwrap", bwrap=True, uids=True, landlock_abi=7, seccomp=True),
    Isolation("landlock", landlock_abi=7, seccomp=True),
    Isolation("rlimits"),
)]
SCHEMA = json.loads((ROOT / "tests" / "schemas" / "compose-spec.json").read_text())


def _load(name: str) -> dict:
    return yaml.safe_load((ROOT / name).read_text())


def _errors(doc: dict) -> list[str]:
    return [e.message for e in jsonschema.Draft7Validator(SCHEMA).iter_errors(doc)]


@pytest.mark.parametrize("name", ["docker-compose.yml", "docker-compose.gpu.yml"])
def test_compose_files_follow_the_specification(name):
    assert _errors(_load(name)) == []


def test_the_schema_check_catches_mistakes():
    broken = _load("docker-compose.yml")
    broken["services"]["app"]["healthcheck"]["retries"] = "many"
    broken["services"]["app"]["portz"] = ["8501:8501"]
    assert len(_errors(broken)) >= 2


def test_compose_app_starts_after_a_healthy_ollama_has_pulled_the_model():
    compose = _load("docker-compose.yml")
    services, volumes = compose["services"], compose["volumes"]
    assert {name for name, service in services.items() if "profiles" not in service} == {"ollama", "model-pull", "app"}
    app, ollama, pull = services["app"], services["ollama"], services["model-pull"]
    host = re.match(r"https?://([^:/]+):(\d+)", app["environment"]["OLLAMA_BASE_URL"])
    assert host and host.group(1) in services and host.group(2) == "11434"
    # The app is published on the host's loopback only, and says so, so it starts without sign-in (ui.access).
    assert "11434:11434" in ollama["ports"] and app["ports"] == ["127.0.0.1:8501:8501"]
    assert app["environment"]["APP_PUBLISHED_ON"] == "${APP_PUBLISHED_ON-loopback}"
    assert app["environment"]["LLM_MODEL"] == "${LLM_MODEL:-qwen2.5-coder:1.5b}"
    assert "OLLAMA_KEEP_ALIVE" in ollama["environment"]
    for service in (ollama, app):
        for mount in service["volumes"]:
            assert mount.split(":")[0] in volumes  # named volumes, declared
    assert app["depends_on"]["model-pull"]["condition"] == "service_completed_successfully"
    assert app["depends_on"]["ollama"]["condition"] == pull["depends_on"]["ollama"]["condition"] == "service_healthy"
    assert pull["entrypoint"][:2] == ["ollama", "pull"] and "LLM_MODEL" in pull["entrypoint"][2]
    assert pull["environment"]["OLLAMA_HOST"].startswith("http://ollama:")
    assert "/_stcore/health" in " ".join(app["healthcheck"]["test"]) and ollama["healthcheck"]["test"]
    gpu = _load("docker-compose.gpu.yml")["services"]["ollama"]["deploy"]["resources"]["reservations"]["devices"]
    assert gpu[0]["capabilities"] == ["gpu"]


def search_defaults() -> dict[str, str]:
    """Each variable of the search (agent.config.Search) with the code's default, as an environment holds it."""
    defaults = Search()
    return {variable: str(getattr(defaults, name)) for name, variable in SEARCH_VARIABLES.items()}


def test_compose_passes_the_search_through_and_states_no_default_of_its_own():
    environment = _load("docker-compose.yml")["services"]["app"]["environment"]
    assert SEARCH_VARIABLES["budget"] in environment  # passed through, so BUDGET=N docker compose up reaches the app
    for variable, default in search_defaults().items():
        if variable not in environment:
            continue
        value = str(environment[variable])
        wrong = f"{variable}: {value} in docker-compose.yml, the code's default is {default}"
        given = re.fullmatch(r"\$\{(\w+):-(.*)\}", value)
        if given:  # ${VAR:-} is blank unless set, and a blank variable reads as unset: the code's default
            assert given.group(1) == variable and given.group(2) in ("", default), wrong
        else:
            assert value == default, wrong


def _flag(command: list[str], name: str) -> str:
    return next(part.split("=", 1)[1] for part in command if part.startswith(f"--{name}="))


def test_compose_ray_profile_is_a_head_and_scalable_workers_from_the_apps_image():
    services = _load("docker-compose.yml")["services"]
    ray = {name: s for name, s in services.items() if "ray" in s.get("profiles", [])}
    assert set(ray) == {"ray-head", "ray-worker", "ray-model-pull"}
    head, worker, pull, app = ray["ray-head"], ray["ray-worker"], ray["ray-model-pull"], services["app"]
    assert head["image"] == worker["image"] == pull["image"] == app["image"] and app["build"] == "."
    assert head["command"][:3] == ["ray", "start", "--head"] and "--block" in head["command"]
    assert "--include-dashboard=false" in head["command"]
    host, port = _flag(worker["command"], "address").split(":")
    assert host == "ray-head" and port == _flag(head["command"], "port") and f"{port}:{port}" in head["ports"]
    client = _flag(head["command"], "ray-client-server-port")
    assert f"{client}:{client}" in head["ports"]
    assert "ray://ray-head:" + client in (ROOT / "docs" / "compose.md").read_text()
    assert worker["depends_on"]["ray-head"]["condition"] == "service_healthy"
    assert worker["depends_on"]["ray-model-pull"]["condition"] == "service_completed_successfully"
    assert "ports" not in worker and "container_name" not in worker  # so --scale ray-worker=N works
    for service in (head, worker, app):  # one token for every node and the driver
        assert service["environment"]["RAY_AUTH_MODE"] == "token"
        assert service["environment"]["RAY_AUTH_TOKEN"] == "${RAY_AUTH_TOKEN:-}"
    models = pull["volumes"][0].split(":")
    assert models[1] == pull["environment"]["MODELS_DIR"]
    assert any(v.split(":")[:2] == [models[0], worker["environment"]["MODELS_DIR"]] for v in worker["volumes"])
    assert app["environment"]["RAY_ADDRESS"] == "${RAY_ADDRESS:-}"


def test_the_package_installs_its_clis_and_the_sandbox_files(tmp_path):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["tool"]["setuptools"]["dynamic"]["dependencies"]["file"] == ["requirements.txt"]
    for target in project["project"]["scripts"].values():
        module, _, function = target.partition(":")
        assert callable(getattr(importlib.import_module(module), function))
    assert re.search(r"pip install .*-e \.$", (ROOT / "run.sh").read_text(), re.MULTILINE)
    assert re.search(r"pip install .*--no-deps \.$", (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    # A real build and install of the package, from a copy (a build leaves build/ behind), apart from the venv.
    source, target = tmp_path / "source", tmp_path / "site"
    source.mkdir()
    for name in ("pyproject.toml", "requirements.txt"):
        shutil.copy(ROOT / name, source / name)
    for package in ("agent", "bench", "sandbox", "ui", "measure"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                           str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    scripts = {path.name for path in (target / "bin").iterdir()}
    assert scripts == set(project["project"]["scripts"])
    assert (target / "sandbox" / "inside" / "confinement" / "worker.py").is_file()
    assert (target / "bench" / "runs" / "backends").is_dir()
    # agent's rooms, and the app with its pages: `streamlit run ui/app.py` imports ui and agent from the install.
    assert all((target / "agent" / room / "__init__.py").is_file() for room in ("providers", "loop", "solves"))
    assert (target / "ui" / "app.py").is_file() and (target / "ui" / "views" / "playground.py").is_file()
    assert (target / "measure" / "__main__.py").is_file()  # `python -m measure` on every machine the package is on
    # The datasets run by name ship with the package, with their licences (HumanEval+: Apache-2.0).
    plus = target / "bench" / "data" / "humanevalplus"
    shipped = {"HumanEvalPlus-OriginFmt.jsonl.gz", "tasks.json", "LICENSE", "README.md"}
    assert {p.name for p in plus.iterdir()} >= shipped
    assert (target / "bench" / "data" / "mbpp-sanitized-dev.jsonl").is_file()
    metadata = next(target.glob("self_healing_agent-*.dist-info")).joinpath("METADATA").read_text()
    assert "Requires-Dist: ray[default]==" in metadata


def _cmake_args(text: str) -> str:
    return re.search(r'CMAKE_ARGS="([^"]+)"', text).group(1)


def test_dockerfile_installs_like_the_readme_command():
    dockerfile, run_sh = (ROOT / "Dockerfile").read_text(), (ROOT / "run.sh").read_text()
    assert dockerfile.startswith("#") and "FROM python:3.11-slim" in dockerfile
    assert _cmake_args(dockerfile) == _cmake_args(run_sh)
    assert "-r requirements.txt" in dockerfile
    debs = set(re.search(r"^DEBS=\((.*)\)$", run_sh, re.MULTILINE).group(1).split())
    apt_line = re.search(r"apt-get install -y --no-install-recommends ([^\\\n]+)", dockerfile).group(1).split()
    assert debs <= set(apt_line)
    user = re.findall(r"^USER (\S+)$", dockerfile, re.MULTILINE)
    assert user and user[-1] not in ("root", "0")
    assert "EXPOSE 8501" in dockerfile and "/_stcore/health" in dockerfile
    # The image serves the app behind its access (ui/serve.py), as run.sh does.
    assert '"ui/serve.py"' in dockerfile and "streamlit run ui/serve.py" in run_sh
    assert '--server.address "${ADDRESS:-127.0.0.1}"' in run_sh


def test_ci_workflow_runs_the_readme_test_command_and_an_honest_gate():
    workflow = _load(".github/workflows/ci.yml")
    steps = [s.get("run", "") for job in workflow["jobs"].values() for s in job["steps"]]
    readme = (ROOT / "README.md").read_text()
    command = "bash run.sh test"
    assert command in readme
    assert any(command in step for step in steps)
    assert re.search(r"^exec bash run.sh test$", (ROOT / ".ci" / "run").read_text(), re.MULTILINE)
    gate = next(step for step in steps if "-m bench" in step and " run " in step)
    args = shlex.split(gate.replace("\\\n", " "))
    assert args[args.index("--feedback") + 1] == "visible" and "--fail-under" in args
    assert 0 < float(args[args.index("--fail-under") + 1]) < 100


@pytest.mark.parametrize("service", ["app", "ray-head", "ray-worker"])  # every service that may run the sandbox
def test_compose_gives_the_app_a_seccomp_profile_that_lets_the_sandbox_isolate(service):
    app = _load("docker-compose.yml")["services"][service]
    options = dict(opt.split("=", 1) for opt in app["security_opt"])
    profile = json.loads((ROOT / options["seccomp"]).read_text())
    assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
    denied = {name for rule in profile["syscalls"] if rule["action"] == "SCMP_ACT_ERRNO" for name in rule["names"]}
    # Every policy a container can get (the app's user makes a user namespace; as root, separate uids; without
    # namespaces, Landlock): the profile denies none of the calls that policy needs to be set up.
    for policy in CONTAINER_POLICIES:
        assert policy.syscalls_needed and not set(policy.syscalls_needed) & denied, policy.level
    assert {"init_module", "kexec_load", "bpf", "userfaultfd", "keyctl", "open_by_handle_at"} <= denied
    assert options["apparmor"] == "unconfined"  # docker-default denies mount, which bubblewrap needs


def test_the_seccomp_profile_and_the_sandbox_policy_agree():
    """What the policy denies the children is not what it needs; what the profile denies the app is not what the
    policy needs; the children's filter is written for an architecture the profile covers."""
    profile = json.loads((ROOT / "deploy" / "seccomp-sandbox.json").read_text())
    denied = {name for rule in profile["syscalls"] if rule["action"] == "SCMP_ACT_ERRNO" for name in rule["names"]}
    for policy in CONTAINER_POLICIES:
        assert not set(policy.syscalls_denied) & set(policy.syscalls_needed), policy.level
        assert not set(policy.syscalls_needed) & denied, policy.level
    needs = {name for policy in CONTAINER_POLICIES for name in policy.syscalls_needed}
    assert {"unshare", "mount", "pivot_root", "landlock_restrict_self", "prctl", "setresuid"} <= needs
    # io_uring's requests could bypass the children's rules: both the children's filter and the profile deny it.
    assert "io_uring_setup" in denied and all("io_uring_setup" in p.syscalls_denied for p in CONTAINER_POLICIES
                                              if p.seccomp)
    arches = {"x86_64": "SCMP_ARCH_X86_64", "aarch64": "SCMP_ARCH_AARCH64"}
    assert {arches[machine] for machine in confine.ARCHES} <= set(profile["architectures"])
