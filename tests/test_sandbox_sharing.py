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


def test_a_change_keeps_the_identity_of_what_the_other_side_changed_in_place():
    rows = [[1, 2], [3, 4]]
    first, second = rows
    before = linking.nested_of(rows)
    assert [path for path, _ in before] == [(0,), (1,)]
    rows[0][0] = 9  # in place
    rows[1] = [7, 7]  # replaced
    assert linking.same_paths(rows, before) == [[0]]
    # The other side's copy gets the change: the row changed in place is written into its own first row, the
    # replaced one is a new list there too.
    theirs = [[1, 2], [3, 4]]
    alias, old_second = theirs
    assert linking.write_back(theirs, [[9, 2], [7, 7]], [[0]])
    assert theirs == [[9, 2], [7, 7]] and theirs[0] is alias and theirs[1] is not old_second
    records = {"a": {"tags": ["x"]}}
    tags = records["a"]["tags"]
    assert linking.write_back(records, {"a": {"tags": ["x", "seen"]}}, [["a"], ["a", "tags"]])
    assert tags == ["x", "seen"] and records["a"]["tags"] is tags
    # What no path names is written as before; a path of the wrong shape is ignored.
    assert linking.write_back([1], [2, 3], [["no", object]]) and linking.at_path({"a": [5]}, ["a", 0]) == 5
    assert len(linking.nested_of([[i] for i in range(1000)])) == linking.MAX_NESTED
