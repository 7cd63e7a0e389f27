"""grounding.openai_agents: the earlier import path of grounding.integrations.openai_agents, kept.

Importing it gives that very module, so what is imported or patched through either name is one and the same.
"""

import sys

from grounding.integrations import openai_agents

sys.modules[__name__] = openai_agents
