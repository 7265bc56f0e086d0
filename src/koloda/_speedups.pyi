"""Types of the C extension ``koloda._speedups`` (src/koloda/_speedups.c)."""

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

BANK_OBS_SIZE: int

def bank_encode(state: Any, seat: int, hand: int, /) -> npt.NDArray[np.float32]: ...
def float_vector(
    flag_bytes: bytes, n_bits: int, scalars: Sequence[float], n_scalars: int, size: int, /
) -> npt.NDArray[np.float32]: ...
def action_mask(legal: Sequence[int], size: int, /) -> npt.NDArray[np.int8]: ...
