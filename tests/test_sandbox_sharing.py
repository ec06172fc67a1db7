"""Which of the code's containers cross as live views (sandbox/inside/sharing.py): those the code holds besides the
answer, read from reference counts measured on a probe; and linked containers written in place (linking.py)."""

from __future__ import annotations

import collections

from inside_modules import inside_modules

sharing, linking = inside_modules("sharing", "linking")


class Holder:
    pass


def _answer(make):
    # As the code's side holds an answer: in one variable, the tuple it came in let go.
    result, _changed = (make(), None)
    return sharing.shared_in(result)


def test_a_fresh_answer_crosses_as_data_and_a_kept_one_live():
    holder = Holder()
    holder.stock = {"apple": 3}
    holder.rows = [[1], [2]]
    assert _answer(lambda: {"apple": 3}) == set()
    assert _answer(lambda: [[1, 2], {"a": [3]}]) == set()
    assert _answer(lambda: holder.stock) == {id(holder.stock)}
    # A tuple the code builds of containers it keeps: the tuple is fresh, what it holds is the code's.
    assert _answer(lambda: (holder.rows, 5)) == {id(holder.rows), id(holder.rows[0]), id(holder.rows[1])}


def test_one_list_twice_in_a_fresh_answer_stays_one_list():
    inner = _answer(lambda: [[0]] * 3)
    assert len(inner) == 1  # the three rows are one list, as in one process


def test_a_global_is_the_codes_state():
    table = {"a": [1]}
    assert sharing.shared_in(table, held=True) == {id(table), id(table["a"])}
    assert sharing.shared_in(5) == set()


def test_contents_are_written_in_place_with_the_standard_types_methods():
    target = [1, 2]
    same = target
    assert linking.replace_contents(target, [3])
    assert same == [3] and same is target
    table = {"a": 1}
    assert linking.replace_contents(table, {"b": 2}) and table == {"b": 2}
    queue = collections.deque([1])
    assert linking.replace_contents(queue, collections.deque([4, 5])) and queue == collections.deque([4, 5])
    assert not linking.replace_contents([1], {"a": 1})  # kinds differ: nothing written
