"""Static checks of what no engine here can run: the Compose files, the Dockerfile, the CI workflow.

tests/schemas/compose-spec.json is the Compose specification's JSON schema as shipped in the
docker-compose 1.29.2 wheel on PyPI (Apache-2.0).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
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


def test_compose_wiring():
    compose = _load("docker-compose.yml")
    services, volumes = compose["services"], compose["volumes"]
    assert set(services) == {"ollama", "model-pull", "app"}
    app, ollama, pull = services["app"], services["ollama"], services["model-pull"]
    host = re.match(r"https?://([^:/]+):(\d+)", app["environment"]["OLLAMA_BASE_URL"])
    assert host and host.group(1) in services and host.group(2) == "11434"
    assert "11434:11434" in ollama["ports"] and "8501:8501" in app["ports"]
    assert app["environment"]["LLM_MODEL"] == "${LLM_MODEL:-qwen2.5-coder:1.5b}"
    assert app["environment"]["MAX_RETRIES"] == "${MAX_RETRIES:-3}"
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


def test_compose_gives_the_app_a_seccomp_profile_that_lets_the_sandbox_isolate():
    app = _load("docker-compose.yml")["services"]["app"]
    options = dict(opt.split("=", 1) for opt in app["security_opt"])
    profile = json.loads((ROOT / options["seccomp"]).read_text())
    assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
    denied = {name for rule in profile["syscalls"] if rule["action"] == "SCMP_ACT_ERRNO" for name in rule["names"]}
    # What bubblewrap needs for a user namespace, and what the sandbox's Landlock and seccomp layers call.
    needed = {"clone", "clone3", "unshare", "setns", "mount", "umount2", "pivot_root", "landlock_create_ruleset",
              "landlock_add_rule", "landlock_restrict_self", "seccomp", "prctl", "setresuid"}
    assert not needed & denied
    assert {"init_module", "kexec_load", "bpf", "userfaultfd", "keyctl", "open_by_handle_at"} <= denied
    assert options["apparmor"] == "unconfined"  # docker-default denies mount, which bubblewrap needs
