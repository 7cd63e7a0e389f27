"""grounding.dspy: the earlier import path of grounding.integrations.dspy, kept.

Importing it gives that very module, so what is imported or patched through either name is one and the same.
"""

import sys

from grounding.integrations import dspy

sys.modules[__name__] = dspy
