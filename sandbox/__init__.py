"""Runs untrusted Python code against unit tests, isolated and with limits. Knows nothing of LLMs."""

from sandbox.inside.confinement.policy import Policy
from sandbox.inside.unsupported import code_could_avoid
from sandbox.isolation import Isolation, IsolationRefused, isolation, isolation_level, require_level, worker_policy
from sandbox.needs import fixtures_lacking, missing_imports
from sandbox.packages import imported_modules, module_offered, packages_offered
from sandbox.pool import close_default_pool
from sandbox.run import check_tests, checks_never_run, describe_tests, run_tests, unsupported_in
from sandbox.status import SandboxStatus, sandbox_status
from sandbox.verdict import STATUSES, Limits, TestReport, TestResult

__all__ = ["STATUSES", "Isolation", "IsolationRefused", "Limits", "Policy", "SandboxStatus", "TestReport",
           "TestResult", "check_tests", "checks_never_run", "close_default_pool", "code_could_avoid", "describe_tests",
           "fixtures_lacking", "imported_modules", "isolation", "isolation_level", "missing_imports",
           "module_offered", "packages_offered", "require_level", "run_tests", "sandbox_status", "unsupported_in",
           "worker_policy"]
