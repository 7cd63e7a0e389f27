"""The project's shared vocabulary, beneath both faces (the ``ground`` command and ``import grounding``): the
one table of every option (``table``), the configuration read from ``[tool.ground]`` / ``ground.toml``
(``config``), the output-contract schemas it names (``schemas``), which rules a run reports (``rules``) and
what exit status a run's summary gives (``exit_codes``). It reads no argv and no terminal: ``grounding.cli``
does, and calls the library, which builds on this."""
