"""Stand-in for apt's simplejpeg, a C extension built for numpy 1.x (see ../../README.md).

Such an extension checks at load time that numpy's structures have the sizes it was compiled
with; beside numpy 2 the dtype struct is larger and the check raises this ValueError.
"""

from __future__ import annotations

import numpy

__version__ = "1.6.6"

if int(numpy.__version__.split(".")[0]) >= 2:
    raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. "
                     "Expected 96 from C header, got 88 from PyObject")
