"""A record is read exactly: a number literal a float would not keep is kept as written (SPEC §5.1).

The fast parser reads floats; a record that holds one (or too many scalars to look at) is searched for
long literals and, when it has one, parsed again exactly.
"""

from decimal import Decimal

import pytest

from grounding.inputs import _may_hold_a_float, loads


@pytest.mark.parametrize(
    ("raw", "path", "exact"),
    [
        (b'{"a": 0.12345678901234567890}', ["a"], Decimal("0.12345678901234567890")),
        (b'{"m": [{"x": [1, {"y": 98765432109876543.21}]}]}', ["m", 0, "x", 1, "y"], Decimal("98765432109876543.21")),
        (b'{"n": 12345678901234567890123}', ["n"], 12345678901234567890123),
        (b'{"s": "' + b"1" * 40 + b'", "f": 1.5}', ["f"], 1.5),
    ],
)
def test_a_long_literal_is_kept_as_written(raw, path, exact):
    node = loads(raw)
    for step in path:
        node = node[step]
    assert node == exact and type(node) is type(exact)


def test_a_long_literal_past_many_scalars_is_kept():
    raw = b'{"rows": [' + b", ".join(b"%d" % i for i in range(300)) + b'], "z": 1.0000000000000000001}'
    assert loads(raw)["z"] == Decimal("1.0000000000000000001")


def test_a_record_is_told_to_hold_a_float_by_a_walk_with_a_budget():
    assert not _may_hold_a_float({"a": [1, "x", None, True, {"b": 2}]})
    assert _may_hold_a_float({"a": [1, {"b": [2.5]}]})
    assert _may_hold_a_float(list(range(257))) and not _may_hold_a_float(list(range(256)))
