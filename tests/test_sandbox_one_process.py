"""What the two processes share as one process would (issue 32): one working directory, one random generator, the
standard library's named tuples as their own types, introspection answered by the code's process. The ordinary
shapes are in tests/shape_catalog.py and the attacks in tests/hostile_programs.py; here, the receiving side's checks
of each new record, and what the catalog cannot show in one pair of answers."""

from __future__ import annotations

import collections
import functools
import os
import time
import urllib.parse

import pytest
from inside_modules import inside_modules

from sandbox import run_tests


def _sides():
    (peer,) = inside_modules("peer")
    return peer.Peer(-1, -1, home="solution", role="code"), peer.Peer(-1, -1, home="tests", role="tests"), peer


# --- the standard library's named tuples -------------------------------------------------------------------------

def test_standard_named_tuples_cross_as_their_own_types():
    code, tests, _ = _sides()

    @functools.lru_cache
    def square(n):
        return n * n

    square(2), square(2)
    for value in (square.cache_info(), os.stat("."), time.localtime(), urllib.parse.urlsplit("http://a.b:81/c?d#e"),
                  urllib.parse.urlparse("http://h/p;x"), urllib.parse.urldefrag("http://h/p#f")):
        back = tests.decode(code.encode(value))
        assert type(back) is type(value) and back == value
    stat = tests.decode(code.encode(os.stat(".")))
    assert stat.st_mtime == os.stat(".").st_mtime and stat.st_mtime_ns == os.stat(".").st_mtime_ns
    assert tests.decode(code.encode(time.gmtime(0))).tm_zone == time.gmtime(0).tm_zone
    assert tests.decode(code.encode(square.cache_info())).hits == 1
    # A namedtuple of no standard module (the code's own have mirrors) is no record.
    assert code.encode(collections.namedtuple("P", "x")(1))[0] != "named_tuple"


@pytest.mark.parametrize(("record", "expected"), [
    (("named_tuple", "os", "system", [("v", 1)], []), (1,)),  # not a class: a plain tuple
    (("named_tuple", "os", "sep", [], []), ()),
    (("named_tuple", "sys", "flags", [("v", 0)], []), (0,)),  # an instance, not a type
    (("named_tuple", "functools", "_CacheInfo", [("v", 1)] * 4, []), (1, 1, 1, 1)),
])
def test_a_named_tuple_record_builds_only_a_standard_tuple_type(record, expected):
    code, tests, _ = _sides()
    built = tests.decode(record)
    assert built == expected
    assert type(built) is tuple or type(built).__module__ == record[1]


@pytest.mark.parametrize("record", [
    ("named_tuple", "antigravity", "x", [], []),  # importing it would open a browser
    ("named_tuple", "solution", "Pair", [], []),
    ("named_tuple", "functools", "_CacheInfo", [("v", 1)] * 5, []),  # more items than fields
    ("named_tuple", "os", "stat_result", [("v", 1)], []),  # fewer than a stat_result holds
    ("named_tuple", "os", "not an identifier", [], []),
    ("named_tuple", "os", "stat_result", [("v", 0)] * 10, [(1, ("v", 2))]),
    ("named_tuple", "os", "stat_result", [("v", 0)] * 2000, []),
])
def test_a_named_tuple_record_of_the_wrong_shape_is_garbled(record):
    code, tests, peer = _sides()
    with pytest.raises(peer.PeerGone):
        tests.decode(record)


# --- one working directory -------------------------------------------------------------------------------------

def test_the_codes_chdir_is_the_tests_too():
    """In one process the code's os.chdir moves the tests as well: a relative name the tests open next is found
    there, and the tests' own chdir comes back to the code."""
    code = ("import os\ndef enter(name):\n    os.makedirs(name, exist_ok=True)\n    os.chdir(name)\n"
            "    open('made.txt', 'w').write('here')\ndef where():\n    return os.getcwd()\n")
    tests = ("import os\ndef test_chdir():\n    start = os.getcwd()\n    enter('build')\n"
             "    assert os.getcwd() == os.path.join(start, 'build') == where()\n"
             "    assert open('made.txt').read() == 'here'\n    os.chdir(start)\n    assert where() == start\n")
    report = run_tests(code, tests)
    assert report.status == "passed", report.summary()
