"""What confines sandboxed code on this machine: the layers sandbox.isolation found, as one value.

A module of its own so that the host policy (sandbox.host_policy), which is built from it, and the probe
(sandbox.isolation), which finds it and builds the policy, import it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Isolation:
    """What confines sandboxed code on this machine."""

    level: str  # bwrap | landlock | rlimits (see sandbox.isolation)
    bwrap: bool = False
    user_namespace: bool = False  # bubblewrap started without root, in a user namespace of its own
    uids: bool = False  # the code and the tests run as unprivileged uids of their own
    landlock_abi: int = 0  # Landlock ABI applied to each child; 0: none
    seccomp: bool = False
    unreadable_packages: tuple[str, ...] = ()  # allow-listed packages the sandbox's own uids cannot read

    @property
    def description(self) -> str:
        """One line naming every layer, stored with each report and bench run."""
        parts = []
        if self.bwrap:
            parts.append("bwrap(" + ("user," if self.user_namespace else "") + "mount,net,pid,ipc)")
        if self.uids:
            parts.append("uid")
        if self.landlock_abi:
            parts.append(f"landlock{self.landlock_abi}")
        if self.seccomp:
            parts.append("seccomp")
        return "+".join([*parts, "rlimits"])

    @property
    def warning(self) -> str | None:
        """What an operator must know when the isolation is below bubblewrap's (or packages cannot be read), else
        None."""
        parts = [text for text in (self._level_warning(), self._packages_warning()) if text]
        return " ".join(parts) or None

    def _packages_warning(self) -> str | None:
        if not self.unreadable_packages:
            return None
        return (f"SANDBOX_PACKAGES: {', '.join(self.unreadable_packages)} cannot be read by the sandbox's "
                "unprivileged uids, so code that imports them fails: make them readable by others "
                "(chmod -R o+rX on the folder) or install them where others can read them.")

    def _level_warning(self) -> str | None:
        if self.level == "rlimits":
            return ("Weak sandbox: code runs with resource limits only. It can read and change every file this "
                    "app's user can (including its databases) and reach the network. Install bubblewrap, allow "
                    "user namespaces or use a kernel with Landlock; set SANDBOX_REQUIRE to refuse to run like this.")
        if self.level == "landlock":
            return ("Reduced sandbox: no namespaces here (bubblewrap is missing or user namespaces are blocked), so "
                    "code runs confined by Landlock and seccomp only: it sees the host's process list and the "
                    "system's public files, but cannot read the app's data, write outside its temp dir or open "
                    "sockets. The Compose file's seccomp profile gives containers the full sandbox.")
        return None
