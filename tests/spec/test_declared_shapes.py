"""Declared shapes (SPEC §6) that match as a user writes them: a name of several words (a phrase shape), a
shape that tells case ((?-i)), and a run that says when a shape matched nothing (issue 54, point 2)."""

import json
import subprocess
import sys

import pytest

import grounding
from grounding.core.answer.candidates import read_answer
from grounding.core.settings import build_settings

PERSON = r"(?-i)[A-Z][a-z]+ [A-Z][a-z]+"
HISTORY = [{"role": "user", "content": "Who owns account ACC-4471?"},
           {"role": "tool", "content": json.dumps({"owner": "Marcus Whitfield", "account": "ACC-4471",
                                                   "manager": "José García"})}]


def values(answer, *shapes):
    return [(c.value, c.shape, c.text) for c in read_answer(answer, build_settings(list(shapes))).candidates]


def unsupported(answer, **shapes):
    verdict = grounding.check_answer(HISTORY, answer, grounding.Options(shapes=shapes))
    return [(f.text, f.shape) for f in verdict.unsupported]


def test_a_shape_that_writes_a_space_matches_a_name_of_two_words():
    assert values("Ask Marcus Whitfield about ACC-4471.", f"person={PERSON}") == [
        ("marcus whitfield", "person", "Marcus Whitfield"), ("acc-4471", "identifier", "ACC-4471")]


def test_a_name_read_is_grounded_in_any_case_and_any_white_space():
    assert unsupported("ACC-4471 belongs to Marcus Whitfield.", person=PERSON) == []
    assert unsupported("The owner: MARCUS  WHITFIELD.", person=r"[a-z]+\s+[a-z]+ifield") == []


@pytest.mark.parametrize("invented", ["Marcus Whitfieldson", "Marcus Whitman", "Mark Whitfield", "Dana Okoro"])
def test_a_name_not_read_is_flagged_as_written(invented):
    # a read name with a made-up suffix, another surname, another first name: each is a name nobody read
    assert unsupported(f"ACC-4471 belongs to {invented}.", person=PERSON) == [(invented, "person")]


def test_a_name_whose_words_a_result_escapes_is_read_as_its_string_says():
    # json.dumps writes José as Jos\u00e9: the string's words are what was read
    assert "\\u00e9" in HISTORY[1]["content"]
    assert unsupported("The manager is José García.", person=r"(?-i)[A-Z]\w+ [A-Z]\w+") == []
    assert unsupported("The manager is José Garcías.", person=r"(?-i)[A-Z]\w+ [A-Z]\w+") == [
        ("José Garcías", "person")]


def test_a_phrase_shape_matches_whole_words_only():
    # "ACC-4471 belongs" is no phrase of two capitalised words, and a match inside a word is none
    assert values("xMarcus Whitfield", f"person={PERSON}") == []
    assert values("one word Marcus", f"person={PERSON}") == []


def test_a_cased_shape_matches_as_the_answer_spells_it():
    shape = "word=(?-i)[A-Z][a-z]+"
    assert [v for v, _, _ in values("Shipped from page one to Lisbon", shape)] == ["shipped", "lisbon"]
    # the same regex ignoring case (SPEC §6's default) matches every word
    assert len(values("Shipped from page one to Lisbon", "word=[A-Z][a-z]+")) == 6


def test_a_cased_word_is_still_grounded_in_any_case():
    history = [{"role": "tool", "content": '{"city": "LISBON"}'}]
    verdict = grounding.check_answer(history, "It went to Lisbon.", grounding.Options(shapes={"city": "(?-i)[A-Z][a-z]+"}))
    assert [f.text for f in verdict.unsupported] == ["It"]  # Lisbon was read; "It" is the shape's own doing


def test_without_a_phrase_shape_nothing_changes():
    assert values("Ask Marcus Whitfield about ACC-4471.") == [("acc-4471", "identifier", "ACC-4471")]


def _check(tmp_path, *args):
    path = tmp_path / "names.jsonl"
    messages = [*HISTORY, {"role": "assistant", "content": "ACC-4471 belongs to Marcus Whitfield."}]
    path.write_text(json.dumps({"id": "c1", "messages": messages}) + "\n")
    return subprocess.run([sys.executable, "-m", "grounding", "check", str(path), *args],
                          capture_output=True, text=True, check=False)


def test_a_run_says_which_shape_matched_nothing(tmp_path):
    run = _check(tmp_path, "--shape", f"person={PERSON}", "--shape", "wwn=(?:[0-9a-f]{2}:){7}[0-9a-f]{2}")
    assert run.returncode == 0, run.stderr
    assert "--shape wwn matched no value in the 1 answer judged" in run.stderr
    assert "--shape person" not in run.stderr


def test_a_run_says_a_shape_that_means_case_ignores_it(tmp_path):
    run = _check(tmp_path, "--shape", "person=[A-Z][a-z]+ [A-Z][a-z]+")
    assert "--shape person writes A-Z but ignores case" in run.stderr
    assert "start its regex with (?-i)" in run.stderr
    assert "warning" not in _check(tmp_path, "--shape", f"person={PERSON}").stderr


def test_explain_says_where_a_name_was_read(tmp_path):
    run = _check(tmp_path, "--shape", f"person={PERSON}", "--explain", "--output-format", "json")
    explained = {e["text"]: e for e in json.loads(run.stdout)["answers"][0]["explain"]}
    assert explained["Marcus Whitfield"]["status"] == "grounded"
    assert explained["Marcus Whitfield"]["sources"] == ["line 1, item 1"]
