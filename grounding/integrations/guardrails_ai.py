"""The evidence check as a Guardrails AI validator.

    from guardrails import Guard
    from grounding.guardrails_ai import GroundedInEvidence

    guard = Guard().use(GroundedInEvidence(on_fail="fix"))
    outcome = guard.validate(answer, metadata={"history": messages})  # the history the answer was written from
    outcome.validated_output  # the answer, its unsupported values masked

The validator judges the value against every tool result the history holds (any history ``check_answer``
takes: a record, the messages as the loop holds them, SDK objects too), given per call as
``metadata={"history": ...}`` or once to the validator. A flagged value fails with each unsupported value
named and its place as an error span; its ``fix_value`` is the value with them masked (``fix``), so
``on_fail="fix"`` ships that. An answer whose evidence cannot be read (a tool result over
``max_record_bytes``, turns the API holds), or that has no text, fails too, never passes, with nothing
masked.
"""

from __future__ import annotations

from typing import Any

from grounding.integrations.base import Framework

FRAMEWORK = Framework("Guardrails AI", ("guardrails",), extra="guardrails")

try:
    from guardrails.validators import ErrorSpan, FailResult, PassResult, ValidationResult, Validator, register_validator
except ImportError as error:  # pragma: no cover - the message is the point
    raise FRAMEWORK.missing("grounding.guardrails_ai", "Guardrails AI") from error

from grounding.errors import EmptyAnswerError
from grounding.fixing import MASK, fix
from grounding.library import Options, check_answer
from grounding.model import Status

__all__ = ["GroundedInEvidence"]


@register_validator(name="ground/grounded-in-evidence", data_type="string")
class GroundedInEvidence(Validator):
    """Fails a value that states a number, identifier or name no tool result in the history holds.

    history: the conversation the value was written from (or pass ``metadata={"history": ...}`` per call);
    options: grounding.Options; format: the history's format (None: detected); replacement: what the fix
    puts in place of each unsupported value ("" removes them)."""

    def __init__(self, history: object = None, options: Options | None = None, format: str | None = None,  # noqa: A002
                 replacement: str = MASK, on_fail: Any = None, **kwargs: Any) -> None:  # noqa: ANN401
        super().__init__(on_fail=on_fail, format=format, replacement=replacement, **kwargs)
        self.history, self.options, self.history_format, self.replacement = history, options, format, replacement

    def validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:  # noqa: ANN401
        history = metadata.get("history", self.history)
        if history is None:
            raise ValueError("GroundedInEvidence: no history to judge against: pass guard.validate(answer, "
                             "metadata={'history': messages}) or GroundedInEvidence(history=messages)")
        try:
            verdict = check_answer(history, value, self.options, format=metadata.get("format", self.history_format))
        except EmptyAnswerError as empty:
            return FailResult(error_message=str(empty), fix_value=value)
        if verdict.status is Status.UNJUDGEABLE:
            return FailResult(error_message=f"the answer cannot be judged: {verdict.reason}", fix_value=value)
        if verdict.status is not Status.FLAGGED:
            return PassResult()
        written = ", ".join(repr(finding.text) for finding in verdict.unsupported)
        spans = [ErrorSpan(start=f.at, end=f.at + len(f.text), reason="appears in no tool result read")
                 for f in verdict.unsupported if f.at >= 0]
        return FailResult(error_message=f"values that appear in no tool result read in this conversation: {written}",
                          fix_value=fix(str(value), verdict, replacement=self.replacement), error_spans=spans)
