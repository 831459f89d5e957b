"""Argument checks shared by the scaling methods: a bounded real number, a length."""

from __future__ import annotations

import math
import numbers

import numpy as np


def _check_real(value, name: str, *, minimum: float, strict: bool = False) -> float:
    """Return ``value`` as a float if it is a finite real number >= (or >) ``minimum``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    try:
        value = float(value)
    except OverflowError:                                 # an int past float64's range
        value = math.inf
    bad = value <= minimum if strict else value < minimum
    if not np.isfinite(value) or bad:
        relation = ">" if strict else ">="
        raise ValueError(f"{name} must be a finite number {relation} {minimum:g}, got {value}")
    return value


def _check_length(value, name: str = "original_length") -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) \
            or value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if value > 2**1023:                                   # past float64's range: np.log overflows
        raise ValueError(f"{name} must be at most 2**1023, got an integer of {len(str(value))} digits")
    return int(value)
