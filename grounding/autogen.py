"""grounding.autogen: the earlier import path of grounding.integrations.autogen, kept.

Importing it gives that very module, so what is imported or patched through either name is one and the same.
"""

import sys

from grounding.integrations import autogen

sys.modules[__name__] = autogen
