"""grounding.nemo: the earlier import path of grounding.integrations.nemo, kept.

Importing it gives that very module, so what is imported or patched through either name is one and the same.
"""

import sys

from grounding.integrations import nemo

sys.modules[__name__] = nemo
