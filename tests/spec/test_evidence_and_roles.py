"""SPEC §2 (who said what) and §5 (the evidence index)."""

import json

from conftest import judge, unsupported, verdict_of


def test_tool_result_grounds_and_invention_is_flagged():
    verdict = judge({"vm": "vm-prd-app-0317", "host": "esx-r07-u22"}, answer="vm-prd-app-0317 runs on esx-r07-u23")
    assert unsupported(verdict) == ["esx-r07-u23"] and verdict.status.value == "flagged"


def test_matching_is_token_exact_never_substring():
    verdict = judge({"uuid": "4210f3c2-77aa-4c5e-9f0e-21b8d0e3c911", "naa": "naa.0xef0101ab"},
                    answer="uuid 4210f3c2-77aa, port 0xef0101")
    assert unsupported(verdict) == ["0xef0101", "4210f3c2-77aa"]


def test_json_numbers_keep_every_digit():
    verdict = judge('{"iccid": 89014103211118510720}', answer="SIM 89014103211118510721 and 89014103211118510720")
    assert unsupported(verdict) == ["89014103211118510721"]


def test_text_result_is_tokenised():
    assert unsupported(judge("host esx-r07-u22 has 16384 MB", answer="esx-r07-u22: 16384 MB")) == []


def test_user_and_system_text_are_exempt():
    verdict = judge({"x": 1}, answer="Order W6402718 at PO-99821", user="Where is W6402718?", system="Dept PO-99821")
    assert unsupported(verdict) == []


def test_assistant_text_and_call_arguments_ground_nothing():
    record = {"id": "t", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "I will look up ORD-40001.",
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"o": "ORD-40002"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "{}"},
        {"role": "assistant", "content": "Orders ORD-40001 and ORD-40002."}]}
    assert unsupported(verdict_of(record)) == ["ord-40001", "ord-40002"]


def test_framework_corrections_are_not_exempt():
    record = {"id": "t", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "Your order is ORD-40001."},
        {"role": "user", "content": "[evidence check] These values were not found: ORD-40001"},
        {"role": "assistant", "content": "Your order is ORD-40001."}]}
    assert unsupported(verdict_of(record)) == ["ord-40001"]


def test_every_final_answer_is_judged_against_what_came_before():
    record = {"id": "t", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "It is ORD-40001."},  # judged before the tool ran: flagged
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"order": "ORD-40001"}'},
        {"role": "assistant", "content": "It is ORD-40001."}]}
    from grounding.core.engine import check_conversation
    from grounding.core.settings import Settings
    from grounding.transcripts.formats import read_record
    answers = list(check_conversation(read_record(record, "t", 1), Settings()))
    assert [(a.turn, a.verdict.status.value) for a in answers] == [(0, "flagged"), (1, "grounded")]


def test_anthropic_tool_results_in_user_turns_are_evidence_and_user_text_exempt():
    record = {"id": "t", "system": [{"type": "text", "text": "Site SITE-4401"}], "messages": [
        {"role": "user", "content": "Check the port."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "tu1", "name": "f", "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "tu1", "content": [{"type": "text", "text": '{"port": "fc1/3"}'}]},
            {"type": "text", "text": "Also fc1/9 please."}]},
        {"role": "assistant", "content": [{"type": "text", "text": "fc1/3, fc1/9 and fc1/12 at SITE-4401"}]}]}
    assert unsupported(verdict_of(record)) == ["fc1/12"]


def test_anthropic_framework_block_is_neither():
    record = {"id": "t", "messages": [
        {"role": "user", "content": [{"type": "text", "text": "[schema check] value ORD-40001 was bad"}]},
        {"role": "assistant", "content": "Order ORD-40001."}]}
    assert unsupported(verdict_of(record)) == ["ord-40001"]


def test_each_block_is_its_own_result():
    # §2.4: the absence in the first block lends nothing of looked_for; the second block grounds BR-014
    absence = {"af_absent": True, "looked_for": "hold H-88131", "checked": ["branch BR-014 holds shelf"]}
    record = {"id": "t", "messages": [
        {"role": "user", "content": "hold?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "tu1", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu1", "content": [
            {"type": "text", "text": json.dumps(absence)}, {"type": "text", "text": "see BR-014"}]}]},
        {"role": "assistant", "content": "Hold H-88131 is not at BR-014."}]}
    assert unsupported(verdict_of(record)) == ["h-88131"]


def test_absence_grounds_everything_but_looked_for():
    absence = {"af_absent": True, "looked_for": "isbn 978-0-262-04631-2", "checked": ["catalogue"],
               "try_instead": "Ask branch BR-022.", "known_shares": ["SHR-7781"]}
    verdict = judge(absence, answer="978-0-262-04631-2 not found; ask BR-022 about SHR-7781")
    assert unsupported(verdict) == ["978-0-262-04631-2"]


def test_ledger_around_absence():
    ledger = {"af_coverage": {"sources": ["MTR-55-10477"]},
              "result": {"af_absent": True, "looked_for": "MTR-55-10499", "checked": ["head-end HE-03"]}}
    verdict = judge(ledger, answer="MTR-55-10499 is missing; MTR-55-10477 and HE-03 were checked")
    assert unsupported(verdict) == ["mtr-55-10499"]


def test_absence_nested_deeper_is_ordinary_data():
    nested = {"data": {"af_absent": True, "looked_for": "MTR-55-10499", "checked": ["x"]}}
    assert unsupported(judge(nested, answer="MTR-55-10499")) == []


def test_absence_needs_a_non_empty_checked_list():
    not_absence = {"af_absent": True, "looked_for": "MTR-55-10499", "checked": []}
    assert unsupported(judge(not_absence, answer="MTR-55-10499")) == []


def test_an_answer_that_examines_no_value_is_unchecked_not_grounded():
    # SPEC-READINGS §2.2 called it grounded; issue 48 gives it its own status: nothing was checked
    for answer in ("", "Sure, happy to help.", "The sync runs every 15 minutes."):
        verdict = judge({"x": 1}, answer=answer)
        assert (verdict.status.value, verdict.candidates, verdict.reason) == (
            "unchecked", 0, "the answer states no value to look up")
    assert judge({"x": 1234}, answer="It is 1234.").status.value == "grounded"
