"""The pure core: a conversation and its settings in, verdicts out. No I/O."""
