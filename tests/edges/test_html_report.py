"""--output-format html: one self-contained page (no network, nothing loaded), flagged answers first, every
examined value marked by its verdict, every transcript text escaped; and, in a real headless Chromium, the
page renders with no console error, its script filters, and a hostile transcript stays text."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import REPO, real_corpora

HOSTILE_ANSWER = ("Your order ORD-66666 <img src=x onerror=alert(1)> is ready.</div></details><script>alert(2)"
                  "</script> Tracking 1Z999AA10123456784.")


def _report(tmp_path: Path, *paths: str | Path, name: str = "report.html") -> Path:
    out = tmp_path / name
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", *map(str, paths), "--format", "html",
                           "-o", str(out), "--exit-zero", "-q"], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    return out


def _hostile(tmp_path: Path) -> Path:
    record = {"id": "<script>alert(3)</script>", "messages": [
        {"role": "user", "content": "Where is my order?"},
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                              "function": {"name": "<b>lookup</b>", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"tracking": "1Z999AA10123456784", "note": "<i>x</i>"}'},
        {"role": "assistant", "content": HOSTILE_ANSWER}]}
    path = tmp_path / "hostile.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return path


class _Page(HTMLParser):
    """The elements of a page, and the text and classes of its value marks."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.marks: list[tuple[str, str]] = []  # (classes, text) of each a.v in the answers' text
        self._in_mark: str | None = None
        self._in_answer = 0
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "div" and attributes.get("class") == "answer":
            self._in_answer += 1
        if tag == "a" and "v" in (attributes.get("class") or "").split() and self._in_answer:
            self._in_mark = attributes["class"]
            self.marks.append((self._in_mark, ""))

    def handle_endtag(self, tag):
        if tag == "a":
            self._in_mark = None
        if tag == "div" and self._in_answer:
            self._in_answer -= 1

    def handle_data(self, data):
        self.text.append(data)
        if self._in_mark is not None:
            classes, text = self.marks[-1]
            self.marks[-1] = (classes, text + data)


def _parsed(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


def _unsupported_texts(*paths: Path) -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "grounding", "check", *map(str, paths), "--format", "json",
                           "--exit-zero"], capture_output=True, text=True, cwd=REPO)
    return sorted(f["text"] for a in json.loads(proc.stdout)["answers"] for f in a["unsupported"])


def test_the_page_needs_nothing_from_outside(tmp_path):
    html = _report(tmp_path, REPO / "fixtures" / "support_bot.jsonl").read_text()
    page = _parsed(html)
    assert not [a for tag, a in page.tags if a.get("src") or (tag == "link")]  # no script, image or style file
    assert all(a["href"].startswith("#") for tag, a in page.tags if tag == "a")
    policy = next(a["content"] for tag, a in page.tags if a.get("http-equiv") == "Content-Security-Policy")
    assert policy.startswith("default-src 'none'")


def test_flagged_cards_come_first_open_and_the_rest_collapsed(tmp_path):
    page = _parsed(_report(tmp_path, REPO / "fixtures" / "support_bot.jsonl").read_text())
    cards = [(a["data-status"], "open" in a) for tag, a in page.tags if tag == "details"]
    assert cards == [("flagged", True), ("derived", True), ("grounded", False)]


def test_every_unsupported_value_is_marked_unsupported(tmp_path):
    fixtures = sorted((REPO / "fixtures").glob("*.jsonl"))
    page = _parsed(_report(tmp_path, *fixtures).read_text())
    marked = sorted(text for classes, text in page.marks if "unsupported" in classes.split())
    assert marked == _unsupported_texts(*fixtures) and marked


def test_a_hostile_transcript_is_text(tmp_path):
    html = _report(tmp_path, _hostile(tmp_path)).read_text()
    page = _parsed(html)
    assert [tag for tag, _ in page.tags].count("script") == 1 and "img" not in [tag for tag, _ in page.tags]
    text = "".join(page.text)
    assert "<img src=x onerror=alert(1)>" in text and "<script>alert(3)</script>" in text
    assert ("v unsupported", "ORD-66666") in page.marks


def test_the_page_reads_without_javascript(tmp_path):
    html = _report(tmp_path, REPO / "fixtures" / "support_bot.jsonl").read_text()
    without_script = re.sub(r"<script>.*?</script>", "", html, flags=re.DOTALL)
    page = _parsed(without_script)
    assert len([tag for tag, _ in page.tags if tag == "details"]) == 3 and page.marks
    assert any(a.get("id") == "filters" and "hidden" in a for tag, a in page.tags)  # no dead controls shown


# --- in a real browser --------------------------------------------------------------------------------------


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no headless Chromium here (CI installs the chromium system package: apt-get install chromium)")


def _browse(page: Path, *flags: str, fragment: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([_chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                           "--v=0", *flags, page.resolve().as_uri() + fragment], capture_output=True, text=True,
                          timeout=120)


def _console(proc: subprocess.CompletedProcess) -> list[str]:
    return [line for line in proc.stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


def test_in_chromium_it_renders_filters_and_keeps_a_hostile_value_as_text(tmp_path):
    fixtures = sorted((REPO / "fixtures").glob("*.jsonl"))
    report = _report(tmp_path, *fixtures, _hostile(tmp_path))
    dumped = _browse(report, "--dump-dom")
    assert dumped.returncode == 0 and not _console(dumped), _console(dumped)
    page = _parsed(dumped.stdout)  # the DOM after the script ran
    marked = sorted(text for classes, text in page.marks if "unsupported" in classes.split())
    assert marked == _unsupported_texts(*fixtures, tmp_path / "hostile.jsonl")
    assert [tag for tag, _ in page.tags].count("script") == 1 and "img" not in [tag for tag, _ in page.tags]
    assert "<img src=x onerror=alert(1)>" in "".join(page.text)
    filters = next(a for tag, a in page.tags if a.get("id") == "filters")
    assert "hidden" not in filters and re.search(r"(\d+) of \1 answers shown", "".join(page.text))
    shot = tmp_path / "report.png"
    taken = _browse(report, "--hide-scrollbars", "--window-size=1280,2000", f"--screenshot={shot}")
    assert taken.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


REAL_SAMPLE = REPO / "tests" / "data" / "real" / "sample.injected.jsonl"  # 47 real answers, 18 with a value injected


def _cards(page: _Page) -> list[tuple[str, bool, bool]]:
    return [(a["data-status"], "open" in a, "hidden" in a) for tag, a in page.tags if tag == "details"]


def test_in_chromium_a_real_report_opens_on_its_flagged_answers_rendered(tmp_path):
    """Issue 54, point 4: flagged answers first and open, the rest collapsed, the Markdown rendered (a list,
    bold), the value read nearest an unsupported one beside it; the filters by rule and conversation, set by a
    link's fragment, leave only their cards; a screenshot of it (looked at when this was written)."""
    report = _report(tmp_path, REAL_SAMPLE)
    dumped = _browse(report, "--dump-dom")
    assert dumped.returncode == 0 and not _console(dumped), _console(dumped)
    page = _parsed(dumped.stdout)
    cards = _cards(page)
    flagged = [card for card in cards if card[0] == "flagged"]
    assert len(flagged) == 18 and cards[:18] == [("flagged", True, False)] * 18
    assert all(not opened for status, opened, _ in cards[18:])
    answer_tags = {tag for tag, _ in page.tags}
    assert {"ul", "li", "strong"} <= answer_tags and "**" not in "".join(page.text)
    assert sum(1 for tag, a in page.tags if a.get("class") == "near") >= 10
    by_rule = _cards(_parsed(_browse(report, "--dump-dom", fragment="#rule=GR001").stdout))
    assert [status for status, _, hidden in by_rule if not hidden] == ["flagged"] * 18
    one = "tau1-gpt-4o-airline/15#injected"
    by_conversation = _parsed(_browse(report, "--dump-dom", fragment=f"#conversation={one.replace('#', '%23')}").stdout)
    shown = [a["data-conversation"] for tag, a in by_conversation.tags if tag == "details" and "hidden" not in a]
    assert shown == [one] * len(shown) and shown
    # a link's filter that no answer of this report has shows none, and says so (not every answer, unsaid)
    none = _browse(_report(tmp_path, REPO / "fixtures" / "absence.jsonl", name="absence.html"), "--dump-dom",
                   fragment="#rule=GR999").stdout
    assert "0 of " in none and '<option value="GR999">GR999</option>' in none
    shot = tmp_path / "flagged.png"
    taken = _browse(report, "--hide-scrollbars", "--window-size=1280,1800", f"--screenshot={shot}",
                    fragment="#rule=GR001")
    assert taken.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 100_000


@pytest.mark.needs_shared
def test_in_chromium_the_report_of_a_real_corpus_has_no_console_error(tmp_path):
    corpus = real_corpora()[0]
    report = _report(tmp_path, corpus)
    dumped = _browse(report, "--dump-dom")
    assert dumped.returncode == 0 and not _console(dumped), _console(dumped)
    page = _parsed(dumped.stdout)
    assert len(page.marks) > 100 and [tag for tag, _ in page.tags].count("script") == 1


def test_the_cards_are_spilled_as_judged_not_held():
    """R40: every card was held until the end (763 MB at 100k answers). Python's heap stays flat while 3,000
    answers are reported (the cards go to temporary files), and the page still lists flagged first."""
    import io
    import tracemalloc

    from grounding.model import Finding, JudgedAnswer, Status, Summary, Verdict
    from grounding.reporters.html import HtmlReporter

    def judged(number: int) -> JudgedAnswer:
        flagged = number % 2 == 0
        verdict = Verdict(Status.FLAGGED if flagged else Status.GROUNDED, 1,
                          (Finding(f"ord-{number}", "identifier", f"ORD-{number}", at=6),) if flagged else ())
        return JudgedAnswer("t.jsonl", number + 1, f"c{number}", 0, f"Order ORD-{number} " + "x" * 2000, verdict)

    out = io.StringIO()
    reporter = HtmlReporter(out, io.StringIO())
    tracemalloc.start()
    for number in range(3000):
        reporter.answer(judged(number))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 2_000_000  # the cards alone are ~7 MB
    reporter.finish(Summary())
    page = out.getvalue()

    def at(number: int) -> int:
        return page.index(f"conversation c{number} turn")

    assert page.count('<details class="card"') == 3000
    assert at(2998) < at(1)  # flagged first, each kind in arrival order
    assert at(0) < at(2998) and at(1) < at(2999)
