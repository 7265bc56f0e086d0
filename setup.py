"""koloda's two C extensions, ``koloda._speedups`` and ``koloda._thousand``; everything else is in
pyproject.toml.

Both are optional: where one cannot be built (no C compiler, or for ``_speedups`` a build without NumPy's
headers), koloda installs without it and uses its Python reference code, which gives the same results, only
slower: the observation tensors (docs/performance.md, "RL interfaces") and Thousand's trick-play solver
(koloda.thousand.solver, docs/bots.md). ``KOLODA_PURE_WHEEL=1`` in the environment leaves both out on
purpose: ``python -m build`` then makes a pure-Python wheel (``py3-none-any``) that installs on any
platform (docs/packaging.md).
"""

import os

from setuptools import Extension, setup

try:
    import numpy
except ImportError:  # only a build without isolation can lack it (pyproject.toml requires it)
    numpy = None

extensions = []
if os.environ.get("KOLODA_PURE_WHEEL", "") in ("", "0"):
    if numpy is not None:
        extensions.append(
            Extension(
                "koloda._speedups",
                ["src/koloda/_speedups.c"],
                include_dirs=[numpy.get_include()],
                optional=True,
            )
        )
    # Thousand's trick play and solver (plain C, no NumPy); -O2 is what every setuptools build uses
    extensions.append(Extension("koloda._thousand", ["src/koloda/_thousand.c"], optional=True))

setup(ext_modules=extensions)
