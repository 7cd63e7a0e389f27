"""The HTML report's style sheet and script, inline in the page (it must open from a CI artifact, with no
network): the page reads whole without the script, which only filters the cards."""

# What the page may load: nothing but its own inline style and script (a transcript's text can reach no
# server, and no image, font or frame, even if an escape were ever missed).
CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

STYLE = """
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --paper: #ffffff; --wash: #f6f8fa;
  --unsupported: #cf222e; --unsupported-bg: #ffebe9; --grounded: #1a7f37; --grounded-bg: #dafbe1;
  --derived: #8250df; --derived-bg: #fbefff; --example: #9a6700; --example-bg: #fff8c5; --other: #57606a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink);
  background: var(--wash); }
main { max-width: 1100px; margin: 0 auto; padding: 24px 16px 64px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; }
.meta { color: var(--muted); margin: 0 0 16px; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 8px; }
.tile { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; }
.tile b { display: block; font-size: 22px; } .tile span { color: var(--muted); }
.tile.flagged b { color: var(--unsupported); } .tile.derived b { color: var(--derived); }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 12px; margin-top: 12px; }
.chart { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; }
.chart h3 { font-size: 13px; margin: 0 0 6px; color: var(--muted); font-weight: 600; }
.chart svg { width: 100%; height: auto; } .chart text { font: 12px system-ui, sans-serif; fill: var(--ink); }
.chart rect { fill: var(--unsupported); } .chart p { color: var(--muted); margin: 0; }
form#filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 16px 0 8px; }
form#filters select, form#filters input { font: inherit; padding: 4px 6px; border: 1px solid var(--line);
  border-radius: 4px; background: var(--paper); }
form#filters input[type=search] { flex: 1 1 220px; } #shown { color: var(--muted); }
details.card { background: var(--paper); border: 1px solid var(--line); border-left: 4px solid var(--other);
  border-radius: 6px; margin: 8px 0; }
details.card[data-status=flagged] { border-left-color: var(--unsupported); }
details.card[data-status=derived] { border-left-color: var(--derived); }
details.card[data-status=grounded] { border-left-color: var(--grounded); }
details.card > summary { cursor: pointer; padding: 8px 12px; list-style-position: inside; }
.card-body { padding: 0 12px 12px; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600;
  background: var(--wash); color: var(--other); margin-right: 6px; }
.badge.flagged { background: var(--unsupported-bg); color: var(--unsupported); }
.badge.derived { background: var(--derived-bg); color: var(--derived); }
.badge.grounded { background: var(--grounded-bg); color: var(--grounded); }
.where { color: var(--muted); } code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
.answer { word-break: break-word; background: var(--wash); border-radius: 4px; padding: 8px 10px; margin: 4px 0 8px; }
.answer p, .answer ul, .answer ol, .answer pre, .answer table, .answer blockquote, .answer h4 { margin: 0 0 8px; }
.answer > :last-child { margin-bottom: 0; } .answer h4 { font-size: 14px; }
.answer pre { white-space: pre-wrap; font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--paper);
  border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; }
.answer table { border-collapse: collapse; background: var(--paper); }
.answer th, .answer td { border: 1px solid var(--line); padding: 2px 8px; text-align: left; vertical-align: top; }
.answer blockquote { border-left: 3px solid var(--line); padding-left: 8px; color: var(--muted); }
.answer ul, .answer ol { padding-left: 22px; } .answer code { background: var(--paper); padding: 0 2px; }
.near { color: var(--muted); font-size: 12px; margin-left: 4px; }
a.v { color: inherit; text-decoration: none; border-radius: 3px; padding: 0 2px; border-bottom: 2px solid; }
a.v.unsupported { background: var(--unsupported-bg); border-color: var(--unsupported); font-weight: 600; }
a.v.grounded { background: var(--grounded-bg); border-color: var(--grounded); }
a.v.derived { background: var(--derived-bg); border-color: var(--derived); }
a.v.example { background: var(--example-bg); border-color: var(--example); }
ol.values { margin: 0; padding-left: 20px; } ol.values li { margin: 4px 0; } ol.values li:target { background: #fff8c5; }
.src { margin-left: 2px; } .snippet { display: block; color: var(--muted); white-space: pre-wrap; word-break: break-word; }
.reason { color: var(--muted); font-style: italic; }
.problems li { color: var(--unsupported); }
"""

# Filters the cards by status, rule, shape, source, conversation and text; the page is whole without it.
SCRIPT = """
(function () {
  var form = document.getElementById("filters");
  var cards = Array.prototype.slice.call(document.querySelectorAll("details.card"));
  var shown = document.getElementById("shown");
  var names = ["status", "rule", "shape", "source", "conversation", "q"];
  form.hidden = false;
  function has(list, item) { return (" " + list + " ").indexOf(" " + item + " ") >= 0; }
  function apply() {
    var f = {};
    names.forEach(function (name) { f[name] = form.elements[name].value.trim(); });
    var query = f.q.toLowerCase(), count = 0;
    cards.forEach(function (card) {
      var match = (!f.status || card.dataset.status === f.status) && (!f.rule || has(card.dataset.rules, f.rule)) &&
        (!f.shape || has(card.dataset.shapes, f.shape)) && (!f.source || card.dataset.source === f.source) &&
        (!f.conversation || card.dataset.conversation.indexOf(f.conversation) >= 0) &&
        (!query || card.textContent.toLowerCase().indexOf(query) >= 0);
      card.hidden = !match;
      if (match) { count += 1; }
    });
    shown.textContent = count + " of " + cards.length + " answers shown";
    var kept = new URLSearchParams();
    names.forEach(function (name) { if (f[name]) { kept.set(name, f[name]); } });
    history.replaceState(null, "", kept.toString() ? "#" + kept.toString() : location.pathname);
  }
  // a link to the page may carry its filters: report.html#status=flagged&rule=GR001
  var given = new URLSearchParams(location.hash.slice(1));
  names.forEach(function (name) {
    var control = form.elements[name], value = given.get(name);
    if (value === null) { return; }
    if (control.tagName === "SELECT" && !Array.prototype.some.call(control.options, function (o) {
      return o.value === value; })) {
      control.add(new Option(value, value));  // none of its kind in this report: shown so, with 0 answers
    }
    control.value = value;
  });
  form.addEventListener("input", apply);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  apply();
})();
"""
