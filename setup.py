"""koloda's one C extension, ``koloda._speedups``; everything else is in pyproject.toml.

The extension is optional: where it cannot be built (no C compiler, or a build without NumPy's headers),
koloda installs without it and the observation tensors use their Python reference code, which gives the
same tensors, only slower (docs/performance.md, "RL interfaces").
"""

from setuptools import Extension, setup

try:
    import numpy
except ImportError:  # only a build without isolation can lack it (pyproject.toml requires it)
    extensions = []
else:
    extensions = [
        Extension(
            "koloda._speedups",
            ["src/koloda/_speedups.c"],
            include_dirs=[numpy.get_include()],
            optional=True,
        )
    ]

setup(ext_modules=extensions)
