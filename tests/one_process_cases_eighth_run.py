"""The eighth differential run (session 33): async code as people test it, on one event loop. The code's coroutines
awaited by the tests, with the tests' queues, events, futures and callbacks; the code's own locks, semaphores,
queues, tasks and timeouts; the tests' timeouts and cancels around the code's coroutines; async context managers and
generators of the code's. Before this run the code's coroutines ran to their ends in one step in the code's process,
and 15 of 34 such tests differed from one process (13 failed a right answer). C(name, code, tests); wrong code (name
ending _bad) beside right; min_ cases are minimised differences."""
from textwrap import dedent as d

CASES = []


def C(name, code, tests):
    CASES.append((name, d(code).strip() + "\n", d(tests).strip() + "\n"))


# =============================================================== 1. the tests' asyncio objects awaited by the code
PRODUCER = '''
import asyncio
async def producer(queue, items):
    for x in items:
        await queue.put(x)
    await queue.put(None)
'''
PRODUCER_T = '''
import asyncio
def test_bounded_queue_of_the_tests():
    async def main():
        q = asyncio.Queue(maxsize=1)
        got = []
        async def consume():
            while (x := await q.get()) is not None:
                got.append(x)
        await asyncio.gather(producer(q, [1, 2, 3]), consume())
        return got
    assert asyncio.run(main()) == [1, 2, 3]
'''
C("async_producer_fills_the_tests_bounded_queue_ok", PRODUCER, PRODUCER_T)
C("async_producer_fills_the_tests_bounded_queue_bad", PRODUCER.replace("put(x)", "put(x * 2)"), PRODUCER_T)

HALVE = '''
import asyncio
async def wait_for_result(fut):
    return (await fut) * 2
'''
HALVE_T = '''
import asyncio
def test_a_future_the_tests_set_later():
    async def main():
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        loop.call_later(0.01, fut.set_result, 21)
        return await wait_for_result(fut)
    assert asyncio.run(main()) == 42
'''
C("async_code_awaits_a_future_of_the_tests_ok", HALVE, HALVE_T)
C("async_code_awaits_a_future_of_the_tests_bad", HALVE.replace("* 2", "* 3"), HALVE_T)

DRAIN = '''
async def drain(queue):
    while True:
        item = await queue.get()
        if item is None:
            return
        yield item
'''
DRAIN_T = '''
import asyncio
def test_async_generator_over_the_tests_queue():
    async def main():
        q = asyncio.Queue()
        async def feed():
            for i in range(3):
                await asyncio.sleep(0.005)
                await q.put(i)
            await q.put(None)
        out = []
        async def take():
            async for x in drain(q):
                out.append(x)
        await asyncio.gather(feed(), take())
        return out
    assert asyncio.run(main()) == [0, 1, 2]
'''
C("async_generator_of_the_code_reads_the_tests_queue_ok", DRAIN, DRAIN_T)
C("async_generator_of_the_code_reads_the_tests_queue_bad", DRAIN.replace("yield item", "yield item + 1"), DRAIN_T)

# =============================================================== 2. the code's own primitives on the tests' loop
LIMITER = '''
import asyncio, time
class RateLimiter:
    def __init__(self, per_second):
        self.interval = 1 / per_second
        self.last = 0.0
        self.lock = asyncio.Lock()
    async def acquire(self):
        async with self.lock:
            now = time.monotonic()
            wait = self.last + self.interval - now
            if wait > 0:
                await asyncio.sleep(wait)
            self.last = time.monotonic()
'''
LIMITER_T = '''
import asyncio, time
def test_calls_are_spaced():
    async def main():
        r = RateLimiter(20)
        stamps = []
        async def one():
            await r.acquire()
            stamps.append(time.monotonic())
        await asyncio.gather(*(one() for _ in range(4)))
        return stamps
    s = asyncio.run(main())
    gaps = [b - a for a, b in zip(s, s[1:])]
    assert all(g >= 0.04 for g in gaps), gaps
'''
C("async_rate_limiter_spaces_the_tests_calls_ok", LIMITER, LIMITER_T)
C("async_rate_limiter_spaces_the_tests_calls_bad", LIMITER.replace("if wait > 0:", "if wait > 10:"), LIMITER_T)

POOL = '''
import asyncio
class Pool:
    def __init__(self, size):
        self._sem = asyncio.Semaphore(size)
        self.active = 0
        self.peak = 0
    async def __aenter__(self):
        await self._sem.acquire()
        self.active += 1
        self.peak = max(self.peak, self.active)
        return self
    async def __aexit__(self, *exc):
        self.active -= 1
        self._sem.release()
'''
POOL_T = '''
import asyncio
def test_at_most_two_at_once():
    p = Pool(2)
    async def use():
        async with p:
            await asyncio.sleep(0.01)
    async def main():
        await asyncio.gather(*(use() for _ in range(5)))
    asyncio.run(main())
    assert p.peak == 2
    assert p.active == 0
'''
C("async_context_manager_with_a_semaphore_ok", POOL, POOL_T)
C("async_context_manager_with_a_semaphore_bad", POOL.replace("await self._sem.acquire()", "pass"), POOL_T)

WORKERS = '''
import asyncio
async def process_all(items, handler, workers=3):
    q = asyncio.Queue()
    for it in items:
        q.put_nowait(it)
    results = {}
    async def worker():
        while True:
            it = await q.get()
            try:
                results[it] = await handler(it)
            finally:
                q.task_done()
    tasks = [asyncio.create_task(worker()) for _ in range(workers)]
    await q.join()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return results
'''
WORKERS_T = '''
import asyncio
def test_every_item_handled():
    async def h(x):
        await asyncio.sleep(0.01)
        return x * x
    assert asyncio.run(process_all([1, 2, 3, 4], h)) == {1: 1, 2: 4, 3: 9, 4: 16}
'''
C("async_worker_pool_on_a_queue_ok", WORKERS, WORKERS_T)
C("async_worker_pool_on_a_queue_bad", WORKERS.replace("    await q.join()\n", "    await asyncio.sleep(0)\n"),
  WORKERS_T)

DEBOUNCE = '''
import asyncio
class Debouncer:
    def __init__(self, delay, fn):
        self.delay = delay
        self.fn = fn
        self._task = None
    def trigger(self, value):
        if self._task:
            self._task.cancel()
        self._task = asyncio.get_running_loop().create_task(self._later(value))
    async def _later(self, value):
        await asyncio.sleep(self.delay)
        self.fn(value)
'''
DEBOUNCE_T = '''
import asyncio
def test_only_the_last_trigger_fires():
    got = []
    async def main():
        d = Debouncer(0.02, got.append)
        d.trigger(1)
        d.trigger(2)
        await asyncio.sleep(0.005)
        d.trigger(3)
        await asyncio.sleep(0.05)
    asyncio.run(main())
    assert got == [3]
'''
C("async_debouncer_task_made_in_a_sync_method_ok", DEBOUNCE, DEBOUNCE_T)
C("async_debouncer_task_made_in_a_sync_method_bad", DEBOUNCE.replace("            self._task.cancel()\n",
                                                                       "            pass\n"), DEBOUNCE_T)

ORDER = '''
import asyncio
async def in_completion_order(coros):
    out = []
    for f in asyncio.as_completed(coros):
        out.append(await f)
    return out
async def race(coros):
    tasks = [asyncio.ensure_future(c) for c in coros]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for p in pending:
        p.cancel()
    return done.pop().result()
'''
ORDER_T = '''
import asyncio
async def later(x, t):
    await asyncio.sleep(t)
    return x
def test_as_completed():
    assert asyncio.run(in_completion_order([later('a', 0.05), later('b', 0.01), later('c', 0.03)])) == ['b', 'c', 'a']
def test_first_completed():
    assert asyncio.run(race([later('slow', 0.2), later('fast', 0.01)])) == 'fast'
'''
C("async_as_completed_and_first_completed_ok", ORDER, ORDER_T)
C("async_as_completed_and_first_completed_bad",
  ORDER.replace("asyncio.as_completed(coros)", "[asyncio.gather(*coros)]").replace(
      "return done.pop().result()", "return tasks[0].result() if tasks[0].done() else 'none'"), ORDER_T)

WHO = '''
import asyncio
async def who():
    return asyncio.current_task().get_name()
'''
WHO_T = '''
import asyncio
def test_the_task_it_runs_in():
    async def main():
        return await asyncio.create_task(who(), name='worker-7')
    assert asyncio.run(main()) == 'worker-7'
'''
C("async_current_task_is_the_tests_task_ok", WHO, WHO_T)
C("async_current_task_is_the_tests_task_bad", WHO.replace(".get_name()", ".get_name().upper()"), WHO_T)

# =============================================================== 3. timeouts and cancels
FETCH = '''
import asyncio
async def fetch_with_timeout(fn, timeout):
    try:
        return await asyncio.wait_for(fn(), timeout)
    except asyncio.TimeoutError:
        return None
async def first_or_none(fn, limit):
    try:
        async with asyncio.timeout(limit):
            return await fn()
    except TimeoutError:
        return None
'''
FETCH_T = '''
import asyncio
async def slow():
    await asyncio.sleep(1)
    return 'late'
async def fast():
    return 'ok'
def test_wait_for_in_the_code():
    assert asyncio.run(fetch_with_timeout(slow, 0.05)) is None
    assert asyncio.run(fetch_with_timeout(fast, 1)) == 'ok'
def test_asyncio_timeout_in_the_code():
    assert asyncio.run(first_or_none(slow, 0.05)) is None
    assert asyncio.run(first_or_none(fast, 1)) == 'ok'
'''
C("async_code_times_out_a_coroutine_of_the_tests_ok", FETCH, FETCH_T)
C("async_code_times_out_a_coroutine_of_the_tests_bad", FETCH.replace("return None", "return 'timeout'"), FETCH_T)

SLOW_ADD = '''
import asyncio
async def slow_add(a, b, delay):
    await asyncio.sleep(delay)
    return a + b
'''
SLOW_ADD_T = '''
import asyncio, pytest
def test_times_out():
    with pytest.raises(asyncio.TimeoutError):
        asyncio.run(asyncio.wait_for(slow_add(1, 2, 1), 0.05))
def test_in_time():
    assert asyncio.run(asyncio.wait_for(slow_add(1, 2, 0), 1)) == 3
'''
C("async_tests_time_out_a_coroutine_of_the_code_ok", SLOW_ADD, SLOW_ADD_T)
C("async_tests_time_out_a_coroutine_of_the_code_bad", SLOW_ADD.replace("await asyncio.sleep(delay)", "pass"),
  SLOW_ADD_T)

SERVICE = '''
import asyncio
class Service:
    def __init__(self):
        self.state = 'new'
    async def run(self):
        self.state = 'running'
        try:
            while True:
                await asyncio.sleep(0.01)
        except asyncio.CancelledError:
            self.state = 'stopped'
            raise
'''
SERVICE_T = '''
import asyncio
def test_cancel_a_loop_that_never_ends():
    s = Service()
    async def main():
        t = asyncio.create_task(s.run())
        await asyncio.sleep(0.03)
        t.cancel()
        try:
            await t
        except asyncio.CancelledError:
            return 'cancelled'
    assert asyncio.run(main()) == 'cancelled'
    assert s.state == 'stopped'
'''
C("async_tests_cancel_a_task_of_the_code_ok", SERVICE, SERVICE_T)
C("async_tests_cancel_a_task_of_the_code_bad", SERVICE.replace("            raise\n", "            return\n"),
  SERVICE_T)

# =============================================================== 4. one loop: what one process says of loops
C("async_code_runs_asyncio_run_inside_a_running_loop", '''
import asyncio
async def _double(x):
    return x * 2
def double_sync(x):
    return asyncio.run(_double(x))
''', '''
import asyncio, pytest
def test_from_sync():
    assert double_sync(3) == 6
def test_from_async():
    async def main():
        return double_sync(3)
    with pytest.raises(RuntimeError):
        asyncio.run(main())
''')

C("min_async_code_reads_the_running_loop_in_a_sync_call", '''
import asyncio
def has_loop():
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False
''', '''
import asyncio
def test_inside_and_outside():
    async def main():
        return has_loop()
    assert asyncio.run(main()) is True
    assert has_loop() is False
''')

C("min_async_code_awaits_a_task_of_the_tests_it_was_handed", '''
async def result_of(task):
    return (await task) + 1
''', '''
import asyncio
def test_task():
    async def main():
        async def v():
            await asyncio.sleep(0.01)
            return 41
        return await result_of(asyncio.create_task(v()))
    assert asyncio.run(main()) == 42
''')

# A CancelledError (a BaseException) out of a test's asyncio.run ended the tests' process: it fails the test, as
# pytest and unittest fail it, and the next test runs.
C("min_async_a_cancelled_run_fails_its_test_only", '''
import asyncio
async def nap(seconds):
    await asyncio.sleep(seconds)
''', '''
import asyncio
def test_cancelled_while_the_code_sleeps():
    async def main():
        asyncio.get_running_loop().call_later(0.01, asyncio.current_task().cancel)
        await nap(0.5)
    asyncio.run(main())
def test_after():
    assert 1 + 1 == 2
''')

C("min_async_a_cancelled_run_fails_its_unittest_only", '''
import asyncio
async def stop_everything():
    await asyncio.sleep(0)
    raise asyncio.CancelledError()
''', '''
import asyncio, unittest
class T(unittest.TestCase):
    def test_cancelled(self):
        asyncio.run(stop_everything())
    def test_after(self):
        self.assertEqual(1 + 1, 2)
''')

# A task handed to call_soon is no function: one process's loop logs the TypeError when it runs it (no debug mode),
# and the ticks go on; the sandbox passes it to the loop as it is (it refused it as a builtin once, not judged).
C("min_async_call_soon_of_a_task_is_logged_not_raised", '''
import asyncio
class Ticker:
    def __init__(self):
        self.ticks = 0
        self.loop = asyncio.get_event_loop()
        self.task = self.loop.create_task(self.add_interval())
    async def add_interval(self):
        while True:
            await asyncio.sleep(0.01)
            self.ticks += 1
    def start(self):
        self.loop.call_soon(self.task, None)
    def stop(self):
        self.task.cancel()
''', '''
import asyncio
def test_ticks_while_running():
    async def main():
        t = Ticker()
        t.start()
        await asyncio.sleep(0.1)
        t.stop()
        return t.ticks
    assert asyncio.run(main()) >= 3
''')

# A fourth review (session 33): asyncio.timeout around the code's own coroutine, twice in one task, the first
# expiring (a CancelledError escaped, then current_task() was None); vars() of a test's object whose private fields
# hold a date and a child (dropped once, failing a right answer).
TIMEOUT = '''
import asyncio
async def slow(d):
    await asyncio.sleep(d)
    return d
async def with_timeout(aw, t):
    try:
        async with asyncio.timeout(t):
            return await aw
    except TimeoutError:
        return "timeout"
'''
TIMEOUT_T = '''
import asyncio
def test_expire_then_again():
    async def main():
        a = await with_timeout(slow(1), 0.01)
        b = await with_timeout(slow(0), 1)
        return a, b
    assert asyncio.run(main()) == ("timeout", 0)
'''
C("async_code_times_out_its_own_coroutine_twice_ok", TIMEOUT, TIMEOUT_T)
C("async_code_times_out_its_own_coroutine_twice_bad", TIMEOUT.replace('return "timeout"', 'return None'), TIMEOUT_T)

C("min_vars_of_a_tests_object_with_private_date_and_child", '''
def field_types(obj):
    return {k: type(v).__name__ for k, v in vars(obj).items()}
''', '''
import datetime
class Node:
    def __init__(self, name, parent=None):
        self.name = name
        self._born = datetime.date(2024, 1, 2)
        self._parent = parent
def test_private_fields_are_read():
    n = Node("b", Node("a"))
    assert field_types(n) == {"name": "str", "_born": "date", "_parent": "Node"}
''')
