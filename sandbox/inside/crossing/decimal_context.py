"""The decimal module's context, one for the tests and the code as in one process.

Runs inside the sandbox (stdlib only), in both processes (testside_sync.py, codeside_sync.py). In one process a
test's ``getcontext().prec = 3`` (or ``with localcontext() as ctx: ctx.prec = 5``) is the precision the code's
division uses, and a ``getcontext().prec = 4`` the code forgets to undo is the one the test reads afterwards. So the
side that changed the context sends its settings with the next message, as plain data, and the other side sets them
on its own context (the serving thread's, in the code's process). The flags a computation raises are not settings
and stay where they were raised.
"""

from __future__ import annotations

import sys

_ROUNDINGS = ("ROUND_DOWN", "ROUND_HALF_UP", "ROUND_HALF_EVEN", "ROUND_CEILING", "ROUND_FLOOR", "ROUND_UP",
              "ROUND_HALF_DOWN", "ROUND_05UP")


def settings() -> tuple | None:
    """This thread's context as plain data (prec, rounding, Emin, Emax, capitals, clamp, whether each signal traps,
    in the context's own order of signals: one interpreter on both sides), or None where nothing here imported
    decimal. Read with every message: a microsecond."""
    decimal = sys.modules.get("decimal")
    if decimal is None:
        return None
    ctx = decimal.getcontext()
    return (ctx.prec, ctx.rounding, ctx.Emin, ctx.Emax, ctx.capitals, ctx.clamp, tuple(ctx.traps.values()))


def apply(sent: object) -> bool:
    """Set this thread's context to settings the other side sent; False (nothing set) where they are malformed."""
    if type(sent) is not tuple or len(sent) != 7:
        return False
    prec, rounding, emin, emax, capitals, clamp, traps = sent
    import decimal

    ctx = decimal.getcontext()
    if (any(type(n) is not int for n in (prec, emin, emax, capitals, clamp)) or rounding not in _ROUNDINGS
            or type(traps) is not tuple or len(traps) != len(ctx.traps) or any(type(t) is not bool for t in traps)):
        return False
    try:
        ctx.prec, ctx.rounding, ctx.Emin, ctx.Emax = prec, rounding, emin, emax
        ctx.capitals, ctx.clamp = capitals, clamp
    except (ValueError, TypeError):
        return False
    for signal, on in zip(list(ctx.traps), traps):
        ctx.traps[signal] = on
    return True
