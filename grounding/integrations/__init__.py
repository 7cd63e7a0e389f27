"""The agent frameworks ground plugs into: one module per framework, its converter (the history as the
framework holds it, read as the records ground reads) and its adapter (the gate at the framework's own hook)
side by side, each declaring its ``FRAMEWORK`` (grounding.integrations.base).

A converter is duck-typed: it tells the framework's objects by their class's module and never imports the
framework, so ``grounding.check_answer(history, answer)`` reads a history as held with nothing extra
installed. An adapter imports its framework, and needs its extra (``pip install 'ground-evidence[NAME]'``).
The modules are imported by name (``from grounding.integrations.langchain import EvidenceGate``), never
here: importing grounding imports no framework. The first adapters' paths (``grounding.langchain``,
``grounding.pydantic_ai``, ``grounding.openai_agents``, ``grounding.nemo``, ``grounding.guardrails_ai``,
``grounding.smolagents``, ``grounding.autogen``, ``grounding.dspy``) still import the same modules.
"""
