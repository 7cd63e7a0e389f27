"""``--output-format otlp``: the verdicts as OpenTelemetry log records, one ExportLogsServiceRequest in OTLP
JSON, for a tracing backend to take in beside the traces it already holds (nothing is sent: write it to a
file with --output, and hand it to the collector's file receiver or the backend's import).

Each answer is a ``gen_ai.evaluation.result`` event (the GenAI semantic conventions): ``gen_ai.evaluation.name``
``ground.evidence`` (as the gate's span events are named), ``gen_ai.evaluation.score.label`` the answer's
status, ``gen_ai.evaluation.score.value`` 1 when every value it states was read and 0 when one was not (none
when it was not judged so), ``gen_ai.evaluation.explanation`` the unsupported values or why it was not judged.
Where the answer was read from a trace, the record carries the trace and span ids of the model call that
wrote it, so the backend attaches the verdict to that span. Records carry no time (the answers were judged
after the fact; the backend's own observed time applies), so the same input gives the same bytes.
"""

from __future__ import annotations

from typing import TextIO

import orjson

from grounding import __version__
from grounding.model import JudgedAnswer, Problem, Summary, path_text

EVENT = "gen_ai.evaluation.result"
EVALUATOR = "ground.evidence"
_SCORED = {"grounded": 1.0, "derived": 1.0, "flagged": 0.0}
_SEVERITY = {"flagged": (13, "WARN")}  # a flagged answer is worth a look; every other verdict is news
_BATCH = 256
_HEAD = ('{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"ground"}}]},'
         '"scopeLogs":[{"scope":{"name":"ground","version":' + orjson.dumps(__version__).decode() + '},"logRecords":[')
_TAIL = "]}]}]}\n"


class OtlpReporter:
    """Log records are written as answers are judged (the document's head first, its tail at the end), so
    memory does not grow with the input. Problems (records that could not be read) go to standard error."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err = out, err
        self.written = 0
        self._unwritten: list[bytes] = []
        self.out.write(_HEAD)

    def answer(self, judged: JudgedAnswer) -> None:
        self._unwritten.append(orjson.dumps(log_record(judged)))
        if len(self._unwritten) >= _BATCH:
            self._write()

    def _write(self) -> None:
        if self._unwritten:
            self.out.write(("," if self.written else "") + b",".join(self._unwritten).decode())
            self.written += len(self._unwritten)
            self._unwritten = []

    def problem(self, problem: Problem) -> None:
        where = f"{path_text(problem.source)}:{problem.line}" if problem.line else path_text(problem.source)
        self.err.write(f"error: {where}: {path_text(problem.message)}\n")

    def finish(self, summary: Summary) -> None:  # noqa: ARG002 (the records are the report)
        self._write()
        self.out.write(_TAIL)


def log_record(judged: JudgedAnswer) -> dict:
    """One answer's verdict as an OTLP JSON LogRecord: the evaluation event, where the answer is, its values."""
    verdict = judged.verdict
    status = verdict.status.value
    unsupported = [finding.text for finding in verdict.unsupported]
    attributes = [_attribute("gen_ai.evaluation.name", EVALUATOR), _attribute("gen_ai.evaluation.score.label", status)]
    if status in _SCORED:
        attributes.append({"key": "gen_ai.evaluation.score.value", "value": {"doubleValue": _SCORED[status]}})
    explanation = (f"not read in any tool result: {', '.join(unsupported)}" if unsupported else verdict.reason)
    if explanation:
        attributes.append(_attribute("gen_ai.evaluation.explanation", explanation))
    attributes += [
        _attribute("ground.version", __version__),
        _attribute("ground.source", path_text(judged.source)),
        {"key": "ground.line", "value": {"intValue": str(judged.line)}},
        {"key": "ground.turn", "value": {"intValue": str(judged.turn)}},
        {"key": "ground.values_examined", "value": {"intValue": str(verdict.candidates)}},
        {"key": "ground.unsupported", "value": {"arrayValue": {"values": [{"stringValue": v} for v in unsupported]}}},
    ]
    if judged.conversation is not None:  # the conversation's id, or (read from a trace without one) the trace's
        attributes.append(_attribute("ground.conversation", judged.conversation))
    severity, severity_text = _SEVERITY.get(status, (9, "INFO"))
    record = {"eventName": EVENT, "severityNumber": severity, "severityText": severity_text,
              "body": {"stringValue": f"{status}: {explanation}" if explanation else status}, "attributes": attributes}
    if judged.span is not None:
        record["traceId"], record["spanId"] = judged.span
    return record


def _attribute(key: str, text: str) -> dict:
    return {"key": key, "value": {"stringValue": text}}
