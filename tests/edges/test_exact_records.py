"""A record is read exactly: a number literal a float would not keep is kept as written (SPEC §5.1).

The fast parser reads floats; a record that holds one (or too many scalars to look at) is searched for
long literals and, when it has one, parsed again exactly.
"""

import io
import json
from decimal import Decimal

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from grounding.model import Record
from grounding.transcripts.assembly import Assembler
from grounding.transcripts.files import _lines
from grounding.transcripts.records import _may_hold_a_float, loads, loads_unchecked


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


# A record read before its numbers are checked -----------------------------------------------------------------

_LONG = "12345678901234567.5"  # a literal a float does not keep (written as a JSON number in place of "LONG")
_NEAR = "12345678901234567.6"  # another, kept as the same float
_INT = "12345678901234568"  # an int, equal to that float
_SPOTS = st.sampled_from(["id", "extra", "role", "message", "content", "arguments", "arguments-text", "call-id",
                          "call-id-int", "answered-float", "answered-int"])


def _openai_record(spots: set[str]) -> bytes:
    """An OpenAI record with a long literal (as a number) in each of spots: where its numbers count, or not.
    Two calls, and the id a result answers: numbers that one float stands for tell ids apart only when read
    exactly (a float equals an int it stands for, too)."""
    call_id = "LONG" if "call-id" in spots else "c1"
    answered = "NEAR" if "answered-float" in spots else "INT" if "answered-int" in spots else "c1"
    arguments = {"n": "LONG"} if "arguments" in spots else ('{"n": ' + _LONG + "}" if "arguments-text" in spots
                                                             else '{"n": 1}')
    content = {"total": "LONG", "id": "INV-7"} if "content" in spots else '{"total": 12.5, "id": "INV-7"}'
    messages = [
        {"role": "LONG" if "role" in spots else "user", "content": "What is the total of INV-7?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": "invoice", "arguments": arguments}},
            {"id": "INT" if "call-id-int" in spots else "c2", "type": "function",
             "function": {"name": "refund", "arguments": '{"order": "ORD-1"}'}}]},
        {"role": "tool", "tool_call_id": answered, "content": content},
        {"role": "assistant", "content": f"INV-7 totals {_LONG} and 12345678901234568."},
    ]
    if "message" in spots:
        messages.insert(1, "LONG")
    record = {"id": "LONG" if "id" in spots else "conv-1", "messages": messages}
    if "extra" in spots:
        record["temperature"] = "LONG"
    return json.dumps(record).replace('"LONG"', _LONG).replace('"NEAR"', _NEAR).replace('"INT"', _INT).encode() + b"\n"


@given(st.sets(_SPOTS), st.sampled_from([None, "openai"]))
@example({"content"}, None)
@example({"arguments"}, None)
@example({"call-id", "answered-int"}, None)
@example({"call-id-int", "answered-float"}, None)
@example({"role"}, None)
@example({"id"}, None)
@example({"message"}, "openai")
def test_a_record_read_before_its_numbers_are_checked_reads_as_one_parsed_exactly(spots, input_format):
    raw = _openai_record(spots)
    lazy = list(_lines(io.BytesIO(raw), "t.jsonl"))
    assert len(lazy) == 1 and isinstance(lazy[0], Record)
    exact = Record("t.jsonl", 1, loads(raw), len(raw), raw)
    assert list(Assembler(input_format).feed(lazy[0])) == list(Assembler(input_format).feed(exact))
    lazy = Record(*_fields(lazy[0], raw))
    assert Assembler(input_format).read_alone(lazy) == Assembler(input_format).read_alone(exact)


def _fields(record: Record, raw: bytes) -> tuple:
    value, checked = loads_unchecked(raw)
    return record.source, record.line, value, record.size, raw, checked


def test_every_reader_is_given_the_record_checked():
    raw = _openai_record({"extra"})  # a long literal even where the reader never looks (a temperature)
    record = next(iter(_lines(io.BytesIO(raw), "t.jsonl")))
    Assembler().read_alone(record)
    assert record.exact and type(record.value["temperature"]) is not float  # read as written, not rounded


def test_other_readers_get_the_record_checked():
    # Anthropic: its reader is given the record checked (a tool's input is written out with its numbers)
    raw = (b'{"system": "s", "messages": [{"role": "user", "content": "go"}, {"role": "assistant", "content": '
           b'[{"type": "tool_use", "id": "t1", "name": "f", "input": {"n": 12345678901234567.5}}]}, {"role": '
           b'"user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "12345678901234567.5"}]}, '
           b'{"role": "assistant", "content": "12345678901234567.5"}]}\n')
    lazy = next(iter(_lines(io.BytesIO(raw), "t.jsonl")))
    exact = Record("t.jsonl", 1, loads(raw), len(raw), raw)
    assert not lazy.exact and list(Assembler().feed(lazy)) == list(Assembler().feed(exact))
