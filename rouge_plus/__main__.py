"""``python -m rouge_plus``: the same command line as ``rouge-plus``."""

import sys

from .cli import main

sys.exit(main())
