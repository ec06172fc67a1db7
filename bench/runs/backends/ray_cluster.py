"""Joining a Ray cluster for a run, or starting one on this machine, with messages a user can act on.

No address: a local Ray (all cores, dashboard off, a small object store: tasks and results are a few
kilobytes), shut down when the last run of this process that uses it ends. An address: the head of a
running cluster (host:port, as `ray start --head` prints), checked first so that "nothing there" and
"that is not Ray" are said at once instead of after Ray's own minute of retries. Either way the job
ships this checkout's agent, bench and sandbox packages to every worker (runtime_env py_modules), so the
machines of a cluster need the dependencies installed, not the code.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from bench.settings import ray_auth_mode, ray_auth_token_at_hand

OBJECT_STORE_BYTES = 80 * 1024 * 1024
PROBE_TIMEOUT_S = 5.0
_GCS_METHOD = "/ray.rpc.NodeInfoGcsService/GetClusterId"  # every Ray head (GCS) serves it

_lock = threading.Lock()
_users = 0
_started_here = False


class ClusterError(Exception):
    """No Ray at the address, not Ray at all, or a cluster too small for the actors asked for."""


def _split(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"the Ray address {address!r} is not host:port (e.g. 10.0.0.5:6379, the address "
                           "`ray start --head` prints), ray://host:10001 or auto")
    return host.strip("[]"), int(port)


def probe(address: str) -> bool:
    """Raise ClusterError unless a Ray head answers at host:port (ray:// and auto are left to Ray);
    returns whether it asks for a token (Ray's token authentication)."""
    if address == "auto" or address.startswith("ray://"):
        return False
    host, port = _split(address)
    try:
        with socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S):
            pass
    except OSError as exc:
        raise ClusterError(f"no Ray cluster at {address}: {exc.strerror or exc}. Start one there with "
                           "`ray start --head --port=6379`, or leave the Ray address empty to start Ray on this "
                           "machine") from None
    import grpc

    channel = grpc.insecure_channel(f"{host}:{port}")
    try:
        grpc.channel_ready_future(channel).result(timeout=PROBE_TIMEOUT_S)
        channel.unary_unary(_GCS_METHOD)(b"", timeout=PROBE_TIMEOUT_S)
    except grpc.FutureTimeoutError:
        raise ClusterError(f"{address} answers but is not a Ray cluster (it does not speak gRPC, as a Ray head "
                           "does): give the head's GCS address, usually port 6379") from None
    except grpc.RpcError as exc:
        # A Ray head answers even a stranger (UNAUTHENTICATED when it wants its token); another gRPC server
        # does not know the method.
        if exc.code() in (grpc.StatusCode.UNIMPLEMENTED, grpc.StatusCode.NOT_FOUND):
            raise ClusterError(f"{address} answers but is not a Ray cluster's head ({exc.code().name}): give the "
                               "head's GCS address, usually port 6379") from None
        return exc.code() == grpc.StatusCode.UNAUTHENTICATED
    finally:
        channel.close()
    return False


def prepare(address: str | None) -> None:
    """Check the address (see probe) and switch on Ray's token authentication for this process when the
    cluster asks for it, or, through Ray Client where nothing can be asked first, when this machine has a
    token: a Ray driver given an address never does so alone. Call it before Ray is imported: Ray reads
    RAY_AUTH_MODE once."""
    if not address:
        return
    wanted = probe(address)
    if ray_auth_mode() or not (wanted or (address.startswith("ray://") and ray_auth_token_at_hand())):
        return
    if not ray_auth_token_at_hand():
        raise ClusterError(f"the Ray cluster at {address} asks for its token: set RAY_AUTH_TOKEN to it (the head "
                           "keeps it in ~/.ray/auth_token, or it is the RAY_AUTH_TOKEN the head was started with)")
    if "ray" in sys.modules:
        raise ClusterError(f"the Ray cluster at {address} asks for its token, and this process loaded Ray without "
                           "token authentication: start it with RAY_AUTH_MODE=token (and RAY_AUTH_TOKEN)")
    os.environ["RAY_AUTH_MODE"] = "token"  # for Ray, which reads it when it is imported: set, not a setting read


def shipped_code() -> dict:
    """The job's runtime_env: this process's agent, bench and sandbox packages, uploaded to the cluster once
    per content (Ray keys the upload by a hash) and put first on every worker's path."""
    import agent
    import bench
    import sandbox

    folders = [str(Path(package.__file__).parent) for package in (agent, bench, sandbox)]
    return {"py_modules": folders, "excludes": ["__pycache__", "*.pyc"]}


@contextlib.contextmanager
def connected(address: str | None) -> Iterator[None]:
    """This process connected to Ray for the block: at the address, or to a Ray started here.

    A process already connected (another run, the test session's cluster) keeps its connection."""
    import ray

    global _users, _started_here
    with _lock:
        if ray.is_initialized():
            if address and _port(address) not in (None, _port(ray.get_runtime_context().gcs_address)):
                raise ClusterError(f"this process is connected to the Ray cluster at "
                                   f"{ray.get_runtime_context().gcs_address}; a run on {address} has to wait "
                                   "until the runs using that cluster end")
        else:
            quiet = {"log_to_driver": False, "logging_level": logging.WARNING, "runtime_env": shipped_code()}
            if address:
                try:
                    ray.init(address=address, **quiet)
                except (ConnectionError, RuntimeError, ValueError) as exc:
                    raise ClusterError(f"cannot join the Ray cluster at {address}: {exc}") from None
            else:
                ray.init(address="local", num_cpus=os.cpu_count() or 1, include_dashboard=False,
                         object_store_memory=OBJECT_STORE_BYTES, **quiet)
            _started_here = True
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0 and _started_here:
                ray.shutdown()
                _started_here = False


def _port(address: str) -> int | None:
    tail = address.rpartition(":")[2]
    return int(tail) if tail.isdigit() and not address.startswith("ray://") else None


def node_cpus() -> list[float]:
    """CPUs of each live node of the connected cluster."""
    import ray

    return [node["Resources"].get("CPU", 0.0) for node in ray.nodes() if node.get("Alive")]


def actors_that_fit(cpus_per_actor: float) -> int:
    """How many actors of this size the cluster's nodes hold at once (an actor's CPUs are on one node)."""
    return sum(int(cpus // cpus_per_actor + 1e-9) for cpus in node_cpus())


def check_fits(actors: int, cpus_per_actor: float) -> None:
    """ClusterError when an actor is larger than every node, or the actors do not fit in the cluster."""
    cpus = node_cpus()
    if not cpus or cpus_per_actor > max(cpus):
        raise ClusterError(f"each actor asks for {cpus_per_actor:g} CPUs, but the largest node of the cluster has "
                           f"{max(cpus, default=0):g} ({sum(cpus):g} CPUs on {len(cpus)} nodes): lower the CPUs per "
                           "actor or add a larger node")
    room = actors_that_fit(cpus_per_actor)
    if actors > room:
        raise ClusterError(f"{actors} actors of {cpus_per_actor:g} CPUs do not fit: the cluster holds {room} "
                           f"({sum(cpus):g} CPUs on {len(cpus)} nodes); ask for fewer actors or add nodes")
