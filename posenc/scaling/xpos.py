"""xPos (Sun et al. 2022): a per-pair decay of queries and keys on top of the rotation.

See the chapter "Where does it fall short, and what came next?"
(docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

import numpy as np

from .._checks import check_d_model, check_positions
from ._args import _check_real


def xpos_zeta(d_model: int, gamma: float = 0.4) -> np.ndarray:
    """xPos's per-pair decay base ``zeta_i = (2 i / d_model + gamma) / (1 + gamma)``.

    Fast pairs decay most (``zeta_0 = gamma / (1 + gamma)``), slow ones barely (``zeta`` near 1).

    Counterpart: the ``scale`` buffer of ``XPOS`` in microsoft/torchscale
    (``(arange(0, d, 2) + 0.4 d) / (1.4 d)``), re-derived in ``tests/package/test_scaling.py``.

    Examples
    --------
    >>> from posenc.scaling import xpos_zeta
    >>> xpos_zeta(8).round(4)
    array([0.2857, 0.4643, 0.6429, 0.8214])
    """
    d_model = check_d_model(d_model)
    gamma = _check_real(gamma, "gamma", minimum=0.0, strict=True)
    i = np.arange(d_model // 2, dtype=np.float64)
    return (2.0 * i / d_model + gamma) / (1.0 + gamma)


def xpos_scales(pos, d_model: int, *, scale_base: float = 512.0, gamma: float = 0.4,
                key: bool = False) -> np.ndarray:
    """Per-pair factors ``zeta_i ** (pos / B)`` for queries, ``zeta_i ** (-pos / B)`` for keys.

    A query rotated and scaled at ``n`` against a key at ``m`` then carries the factor
    ``zeta_i ** ((n - m) / B)`` in pair ``i`` of its score: a decay with the offset alone.

    Counterpart: ``XPOS.forward`` in microsoft/torchscale (``downscale=True`` for keys), which
    numbers rows from ``min_pos = -(length + offset) // 2``: its factors are these times
    ``zeta_i ** (min_pos / B)`` (keys: divided by it), so its scores equal these; both
    re-derived in ``tests/package/test_docstring_claims_p8h.py``.

    Parameters
    ----------
    pos : int or array_like
        An int ``n`` for positions ``0 .. n - 1``, or a 1-D array of positions; each
        ``|pos| <= 708 B / ln(1 / zeta_0)`` (289,357 at the defaults), where the factors stay
        normal float64 numbers.
    d_model : int
        Width of the rotated vectors; a positive even integer.
    scale_base : float, default 512
        ``B`` in the authors' code (torchscale).
    gamma : float, default 0.4
    key : bool, default False
        ``True`` for the key side (negative exponent).

    Returns
    -------
    numpy.ndarray
        Shape ``(len(positions), d_model // 2)``, one factor per pair; apply it to both
        coordinates of the pair.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.scaling import xpos_scales
    >>> q, k = xpos_scales([1024], 8), xpos_scales([512], 8, key=True)
    >>> bool(np.allclose(q * k, xpos_scales([512], 8)))       # offset 512 either way
    True
    """
    positions = check_positions(pos)
    scale_base = _check_real(scale_base, "scale_base", minimum=0.0, strict=True)
    if not isinstance(key, (bool, np.bool_)):
        raise TypeError(f"key must be True or False, got {key!r}")
    zeta = xpos_zeta(d_model, gamma)
    reach = float(np.abs(positions).max()) if positions.size else 0.0
    limit = 708.0 * scale_base / -float(np.log(zeta[0]))   # zeta_0 decays most; exp(-708) is normal
    if not reach <= limit:
        raise ValueError(f"pos reaches {reach:g}, where zeta ** (pos / scale_base) leaves "
                         f"float64's normal range (|pos| at most {limit:.6g})")
    sign = -1.0 if key else 1.0
    return zeta ** (sign * positions[:, None] / scale_base)
