"""What every observation tensor is made of: the optional C speedups, a vector builder, the action mask.

The engines' tensor views (:mod:`koloda.bank.tensor`, :mod:`koloda.thousand.tensor`) and the research
interfaces (:mod:`koloda.rl`) use these. Needs NumPy (the ``rl`` extra); the engines themselves do not.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]
Int8Array = npt.NDArray[np.int8]


class TensorEncoder(Protocol):
    """A game's observation as a float32 tensor of ``size`` entries, each within ``low``..``high``: what
    ``GameSpec.encoder()`` gives the research interfaces (docs/rl.md)."""

    size: int
    low: FloatArray
    high: FloatArray

    def encode(self, state: Any, seat: int) -> FloatArray:
        """The tensor of what ``seat`` may see of ``state`` (a new array)."""
        ...


#: Set to 1 in the environment to run on the Python reference code even where the C extension is built.
NO_SPEEDUPS = "KOLODA_NO_SPEEDUPS"

try:
    # the C versions of the hot paths (src/koloda/_speedups.c), built by ``pip install`` where a C
    # compiler is present; the Python code is their reference, used where they are missing
    from koloda import _speedups
except ImportError:  # pragma: no cover - the project's machines have a compiler
    _speedups = None  # type: ignore[assignment]
speedups = _speedups  # the C module in use: None where it is not built or switched off
if os.environ.get(NO_SPEEDUPS) == "1":
    speedups = None  # type: ignore[assignment]


def mask_python(legal: Sequence[int], num_actions: int) -> Int8Array:
    """The action mask: 1 for each legal action id (a few ids: set in a bytearray, one NumPy call).

    >>> mask_python([1, 3], 5).tolist()
    [0, 1, 0, 1, 0]
    """
    data = bytearray(num_actions)
    for a in legal:
        if a < 0:  # a negative index would set an entry from the end
            raise IndexError(f"action id {a} outside 0-{num_actions - 1}")
        data[a] = 1
    return np.frombuffer(data, np.int8)


#: The action mask of a list of legal ids (a new writable int8 array): :func:`mask_python`, in C if built.
mask_of: Callable[[Sequence[int], int], Int8Array] = (
    speedups.action_mask if speedups is not None else mask_python
)


#: The float32 bytes of the 8 flags of every byte value, least significant bit first.
_FLOAT_BITS: tuple[bytes, ...] = tuple(
    row.astype(np.float32).tobytes()
    for row in np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little")
)


class VectorBuilder:
    """Builds an observation vector from an int of 0/1 flags and a list of scalars.

    :meth:`build` is done in C when the extension is built; :meth:`build_python` is its reference. The
    flags' bytes are looked up in a table of float32 bytes (8 entries per byte), joined into one
    new bytearray whose tail is then replaced by the packed scalars and the zero padding, and NumPy takes
    the buffer in one call. Cheaper than NumPy's unpack-and-convert for a few hundred entries, or than
    writing entries one by one (docs/performance.md, "RL interfaces"); tests/rl/test_rl_speedups.py
    checks it against ``np.unpackbits``.

    >>> VectorBuilder(4, 1, n_zeros=2).build(0b1011, [0.5]).tolist()
    [1.0, 1.0, 0.0, 1.0, 0.5, 0.0, 0.0]
    """

    __slots__ = ("_args", "_at", "_pack", "_pad", "_width")

    def __init__(self, n_bits: int, n_scalars: int, n_zeros: int = 0) -> None:
        self._args = (n_bits, n_scalars, n_zeros, n_bits + n_scalars + n_zeros)
        self._width = (n_bits + 7) // 8
        self._at = 4 * n_bits
        self._pack = struct.Struct(f"<{n_scalars}f").pack
        self._pad = bytes(4 * n_zeros)  # entries kept zero after the scalars (room for later features)

    def build(self, flags: int, scalars: list[float]) -> FloatArray:
        """A new (writable) float32 vector: the bits of ``flags`` as 0/1, the ``scalars``, the zeros.

        ``flags`` must be below ``2**n_bits``: a wider int is an OverflowError, a bit between ``n_bits``
        and the next multiple of 8 is overwritten by the scalars."""
        if speedups is not None:
            n_bits, n_scalars, _, size = self._args
            flag_bytes = flags.to_bytes(self._width, "little")
            return speedups.float_vector(flag_bytes, n_bits, scalars, n_scalars, size)
        return self.build_python(flags, scalars)

    def build_python(self, flags: int, scalars: list[float]) -> FloatArray:
        """:meth:`build` in Python (the reference of the C version)."""
        data = _JOIN([_FLOAT_BITS[b] for b in flags.to_bytes(self._width, "little")])
        data[self._at :] = self._pack(*scalars) + self._pad
        return np.frombuffer(data, np.float32)

    def __reduce__(self) -> tuple[type[VectorBuilder], tuple[int, int, int]]:
        # adapters are pickled with OpenSpiel states; a struct.Struct cannot be, so it is rebuilt
        return VectorBuilder, self._args[:3]


_JOIN = bytearray().join  # joins into a new bytearray: one copy, and the vector is writable
