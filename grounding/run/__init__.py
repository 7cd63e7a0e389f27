"""One run over many inputs: the runner, worker processes, the baseline."""
