"""The gate in a coding agent's loop: ``ground hook claude-code`` and ``ground hook codex``.

A harness runs the hook when its agent is about to stop (Claude Code's and Codex's ``Stop`` and
``SubagentStop`` events). The hook reads the event from standard input (``payload``), judges the turn that
just ended against the session's tool results (``stop``), and answers with the harness's contract: allow
(exit 0, nothing on standard output) or block with a reason the agent gets as one more turn. ``install``
writes the settings that register it. Nothing here is imported by ``grounding`` itself.
"""

POSTURES = ("assist", "guard", "rails")
RAILS_CAP = 3  # blocks of one turn under rails; the stop after the last of them ships flagged
