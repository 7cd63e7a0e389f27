"""grounding.pydantic_ai: the earlier import path of grounding.integrations.pydantic_ai, kept.

Importing it gives that very module, so what is imported or patched through either name is one and the same.
"""

import sys

from grounding.integrations import pydantic_ai

sys.modules[__name__] = pydantic_ai
