"""The line in front of a model: solves take turns in arrival order, a person holds at most their share of places,
a full line says so at once, and a waiting solve can leave."""

from __future__ import annotations

import threading
import time

import pytest

from agent.config import LineSettings
from agent.solves.line import Line, LineFull, Place


def test_turns_come_in_arrival_order_one_seat_at_a_time():
    line = Line(1, LineSettings(per_person=1, length=8))
    tickets = [line.join(f"person-{i}") for i in range(4)]
    assert [line.ahead(t) for t in tickets] == [0, 1, 2, 3]
    assert line.holders() == [tickets[0]] and line.waiting() == 3
    order = []

    def solve(ticket):
        assert line.wait_turn(ticket)
        order.append(ticket.number)
        time.sleep(0.05)
        line.leave(ticket)

    threads = [threading.Thread(target=solve, args=(t,)) for t in reversed(tickets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert order == [1, 2, 3, 4]
    assert line.holders() == [] and line.waiting() == 0


def test_a_model_server_that_batches_seats_several_at_once():
    line = Line(2, LineSettings(per_person=1, length=8))
    first, second, third = (line.join(p) for p in "abc")
    assert line.holders() == [first, second]
    assert line.ahead(third) == 2
    line.leave(second)
    assert line.holders() == [first, third] and line.ahead(third) == 0


def test_one_place_a_person_and_a_full_line_are_said_at_once():
    line = Line(1, LineSettings(per_person=1, length=2))
    line.join("ada")
    with pytest.raises(LineFull, match="you already have 1 solve running or waiting"):
        line.join("ada")
    line.join("bo")
    line.join("cy")
    with pytest.raises(LineFull, match="the line is full"):
        line.join("di")


def test_leaving_the_line_frees_the_place_and_the_estimate_follows_past_solves():
    line = Line(1, LineSettings(per_person=1, length=8))
    first = line.join("ada")
    ticket = line.join("bo")
    stop = threading.Event()
    place = Place(line, ticket)
    waiter = threading.Thread(target=lambda: setattr(place, "gave_up", not place.wait(stop)))
    waiter.start()
    assert place.ahead == 1 and place.estimate_s > 0
    stop.set()
    waiter.join(5)
    assert place.gave_up and ticket.left and line.waiting() == 0
    line.leave(first)
    # A finished solve teaches the estimate how long one takes here.
    third, fourth = line.join("cy"), line.join("di")
    third.started -= 10  # as if it had run ten seconds
    line.leave(third)
    fifth = line.join("ed")
    assert line.ahead(fifth) == 1 and 5 < line.estimate_s(fifth) <= 10.5
    assert fourth in line.holders()
