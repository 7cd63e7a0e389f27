"""What every framework integration declares: the framework's name, the modules its classes live in (how
its objects are told apart, duck-typed: nothing of it is imported to do so), and the extra its adapter needs.

    FRAMEWORK = Framework("AutoGen", ("autogen_agentchat", "autogen_core"))
    FRAMEWORK.owns(message)  # a message of AutoGen's, by its class's module
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Framework:
    name: str  # as its own docs write it
    modules: tuple[str, ...]  # the top-level modules its classes are defined in
    extra: str | None = None  # the pip extra that installs the framework its adapter runs in

    def owns(self, value: object) -> bool:
        """Whether value is an object of this framework's, by the module its class is defined in."""
        return (type(value).__module__ or "").startswith(self.modules)

    def missing(self, module: str, what: str) -> ImportError:
        """The error an adapter raises when its framework is not installed: what to install, and how."""
        return ImportError(f"{module} needs {what}: pip install 'ground-evidence[{self.extra}]'")
