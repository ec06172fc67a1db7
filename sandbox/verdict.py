"""What a sandbox run returns: limits in, per-test results and an overall status out."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

# unsupported: the tests do what the sandbox cannot run as one process would (sandbox/inside/unsupported.py), and every
# test that did not pass met it; never a failure of the code.
STATUSES = ("passed", "failed", "error", "timeout", "memory", "output_limit", "crashed", "unsupported")


@dataclass(frozen=True)
class Limits:
    """Resource limits for one run. cpu_s defaults to the wall timeout."""

    timeout_s: float = 10.0
    cpu_s: float | None = None
    memory_bytes: int = 1 << 30
    processes: int = 32
    file_size_bytes: int = 16 << 20
    open_files: int = 64
    output_bytes: int = 1 << 20

    def to_wire(self) -> dict:
        """The limits as the worker reads them."""
        data = asdict(self)
        data["cpu_s"] = self.cpu_s if self.cpu_s is not None else self.timeout_s
        return data


@dataclass
class TestResult:
    """One test: passed or not, and for a failure what the model needs to repair it."""

    name: str
    passed: bool
    duration_ms: float = 0.0
    lineno: int | None = None
    line: str | None = None
    op: str | None = None
    left: str | None = None
    right: str | None = None
    error_type: str | None = None
    message: str | None = None
    traceback: str | None = None
    skipped: bool = False
    # Set when the test did not pass after doing what the sandbox cannot run as one process would: why. Such a test
    # is not judged, never a failure of the code.
    unsupported: str | None = None

    def describe(self) -> str:
        """A short failure text: the failing line, the compared values, the error, the traceback."""
        if self.skipped:
            return f"SKIPPED {self.name}" + (f": {self.message}" if self.message else "")
        if self.passed:
            return f"PASSED {self.name}"
        if self.unsupported:
            return (f"NOT JUDGED {self.name}: the sandbox cannot run it as one process would: {self.unsupported}"
                    + (f"\n  (it stopped at line {self.lineno}: {self.line})" if self.line else ""))
        parts = [f"FAILED {self.name}"]
        if self.line and self.line not in self.name:
            parts.append(f"  line {self.lineno}: {self.line}")
        if self.op is not None:
            parts.append(f"  left side:  {self.left}")
            parts.append(f"  right side: {self.right}")
            parts.append(f"  (the assert needs left {self.op} right)")
        elif self.error_type == "AssertionError" and self.left is not None:
            parts.append(f"  the asserted value was {self.left}")
        if self.error_type and (self.error_type != "AssertionError" or self.message):
            parts.append(f"  {self.error_type}: {self.message}" if self.message else f"  {self.error_type}")
        if self.traceback and self.error_type != "AssertionError":
            parts.append("  traceback:\n" + "\n".join("    " + ln for ln in self.traceback.rstrip().splitlines()))
        return "\n".join(parts)


@dataclass
class TestReport:
    """The outcome of running code against tests in the sandbox."""

    status: str
    tests: list[TestResult] = field(default_factory=list)
    error: str | None = None
    stdout: str = ""
    stderr: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    duration_ms: float = 0.0
    isolation: str = ""
    shape: str | None = None
    exit_codes: dict[str, int] = field(default_factory=dict)
    # A module the code or the tests imported that the sandbox does not offer (not in the standard library or
    # SANDBOX_PACKAGES): no candidate can pass while it is missing. Its top-level name, and whose import failed:
    # "code" (at load or in a call of the code) or "tests" (the test code's own import).
    missing_module: str | None = None
    missing_module_in: str | None = None
    # What the tests did that the sandbox cannot run as one process would, when a test that did not pass met it (the
    # first reason; TestResult.unsupported has each test's). The status is "unsupported" when no other test failed.
    unsupported: str | None = None

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    @property
    def n_passed(self) -> int:
        return sum(t.passed for t in self.tests)

    @property
    def n_failed(self) -> int:
        return sum(not t.passed and not t.unsupported for t in self.tests)

    @property
    def n_unsupported(self) -> int:
        return sum(bool(t.unsupported) and not t.passed for t in self.tests)

    def to_dict(self) -> dict:
        """Plain data, as the CLI prints it with --json."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> TestReport:
        """Inverse of to_dict (for reports read back from a store; one stored before a field existed gets its
        default)."""
        tests = [TestResult(**t) for t in data.get("tests", [])]
        return cls(**{**data, "tests": tests})

    def summary(self, max_failures: int = 3, max_chars: int = 3000) -> str:
        """The short failure report the model reads when it repairs its code."""
        head = f"status: {self.status} ({self.n_passed} of {len(self.tests)} tests passed)"
        lines = [head]
        if self.error:
            lines.append(self.error)
        # the code's own failures first: the ones not judged (unsupported) say so, and are not for the code to fix
        failures = sorted((t for t in self.tests if not t.passed), key=lambda t: bool(t.unsupported))
        lines += [t.describe() for t in failures[:max_failures]]
        if len(failures) > max_failures:
            lines.append(f"... and {len(failures) - max_failures} more failing tests")
        if self.stderr.strip() and self.status != "passed":
            lines.append("stderr (last lines):\n" + "\n".join(self.stderr.strip().splitlines()[-8:]))
        text = "\n".join(lines)
        return text if len(text) <= max_chars else text[:max_chars] + "\n... [report truncated]"
