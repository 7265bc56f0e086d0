"""koloda's one C extension, ``koloda.rl._speedups``; everything else is in pyproject.toml.

The extension is optional: where it cannot be built (no C compiler), koloda installs without it and the
research interfaces use their Python reference code, which gives the same tensors, only slower
(docs/performance.md, "RL interfaces").
"""

import numpy
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "koloda.rl._speedups",
            ["src/koloda/rl/_speedups.c"],
            include_dirs=[numpy.get_include()],
            optional=True,
        )
    ]
)
