"""Stand-in for Trixie's apt simplejpeg, a C extension built for numpy 2.2 (see ../../README.md).

An extension built against numpy 2.x loads beside any later numpy 2 (numpy keeps the 2.x ABI
compatible forwards); beside numpy 1.x numpy's import check refuses it with this ImportError.
"""

from __future__ import annotations

import numpy

__version__ = "1.8.1"

if int(numpy.__version__.split(".")[0]) < 2:
    raise ImportError("numpy.core.multiarray failed to import (A module that was compiled using "
                      "NumPy 2.x cannot be run in NumPy 1.x)")
