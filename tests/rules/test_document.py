"""The typed-document reader: a field read by its JSON type, and the first problem refused at
its place when the reader stops there."""

from __future__ import annotations

import pytest

from scorekeeper.rules.document import Reader
from scorekeeper.rules.words import words


class Refused(Exception):
    pass


def _refuse(path, said):
    return Refused(path, words(said))


@pytest.mark.parametrize(
    ("data", "kinds", "said"),
    [
        ({}, (int,), "'n' is missing"),
        ({"n": None}, (int,), "'n' is missing"),
        ({"n": True}, (int,), "'n' must be a whole number, not True"),
        ({"n": 2.5}, (int,), "'n' must be a whole number, not the number 2.5"),
        ({"n": 7}, (str, list), "'n' must be text or a list, not the number 7"),
        ({"n": {}}, (bool,), "'n' must be true or false, not an object"),
    ],
)
def test_a_field_of_the_wrong_type_is_refused_in_words(data, kinds, said):
    with pytest.raises(Refused) as refused:
        Reader(refuse=_refuse).field(data, "n", kinds)
    assert refused.value.args == ("n", said)


def test_a_field_left_out_may_take_its_default():
    reader = Reader(refuse=_refuse)
    assert reader.field({}, "n", (int,), required=False, default=3) == 3
    assert reader.field({"n": False}, "n", (bool,)) is False
