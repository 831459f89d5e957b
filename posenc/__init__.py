"""posenc: the sinusoidal positional encoding, derived and checked.

The chapters of the documentation site call this package for every number and figure.
"""

from .encoding import BASE, angles, encode, frequencies, wavelengths
from .layouts import convert as convert_layout
from .layouts import permutation as layout_permutation

__all__ = [
    "BASE",
    "angles",
    "convert_layout",
    "encode",
    "frequencies",
    "layout_permutation",
    "wavelengths",
]
__version__ = "0.1.0"
