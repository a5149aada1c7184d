"""``python -m jaxcb_check PATH ...``."""

import sys

from .checker import main

sys.exit(main())
