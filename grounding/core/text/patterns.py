"""Patterns compiled the first time they are used.

Compiling a pattern costs 0.1 to 2 ms (the ``regex`` module parses it in Python).
The patterns of rarer text (written arithmetic, examples, masks, twelve-hour
times, non-ASCII tokens) cost a tenth of start-up when compiled at import,
and most runs use few of them. A pattern still compiles once, at most.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# What is kept as the object's own attribute once compiled, so later calls find it at once.
_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "split")


class LazyPattern:
    """Stands for ``compile(*arguments)`` and compiles it on first use.

    >>> digits = LazyPattern(__import__("re").compile, r"\\d+")
    >>> digits.findall("a1b22"), digits.pattern
    (['1', '22'], '\\\\d+')
    """

    def __init__(self, compile: Callable[..., object], *arguments: object) -> None:
        self._compile = compile
        self._arguments = arguments

    def __getattr__(self, name: str) -> Any:  # a compiled pattern's attribute (typed as any: re and regex differ)
        # runs only for an attribute the object lacks: before the first use, or for a rarely used one
        if name.startswith("__"):
            raise AttributeError(name)  # copy and pickle probe for hooks: there are none
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self._compiled = self._compile(*self._arguments)
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)
