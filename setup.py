"""koloda's one C extension, ``koloda._speedups``; everything else is in pyproject.toml.

The extension is optional: where it cannot be built (no C compiler, or a build without NumPy's headers),
koloda installs without it and the observation tensors use their Python reference code, which gives the
same tensors, only slower (docs/performance.md, "RL interfaces"). ``KOLODA_PURE_WHEEL=1`` in the
environment leaves it out on purpose: ``python -m build`` then makes a pure-Python wheel
(``py3-none-any``) that installs on any platform (docs/packaging.md).
"""

import os

from setuptools import Extension, setup

try:
    import numpy
except ImportError:  # only a build without isolation can lack it (pyproject.toml requires it)
    numpy = None

extensions = []
if numpy is not None and os.environ.get("KOLODA_PURE_WHEEL", "") in ("", "0"):
    extensions.append(
        Extension(
            "koloda._speedups",
            ["src/koloda/_speedups.c"],
            include_dirs=[numpy.get_include()],
            optional=True,
        )
    )

setup(ext_modules=extensions)
