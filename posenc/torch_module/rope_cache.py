"""The cos/sin cache of :class:`~posenc.torch_module.rotary.RotaryEmbedding`: its frequencies,
and one float32 table of cos and sin per device that grows with the positions asked for.

See the class Notes of :class:`~posenc.torch_module.rotary.RotaryEmbedding` and the chapter "How
do positions behave in a running model?" (docs/chapters/16-positions-in-a-running-model.md).
"""

from __future__ import annotations

import numpy as np
import torch

from .rotate import rope_cos_sin

GROWTH, ROUND = 8, 64
"""When a position past the cos/sin cache is asked for, the cache grows to that position, and
by at least ``1 / GROWTH`` of its length, rounded up to a multiple of ``ROUND`` positions."""

TABLE_ROWS = 2**20
"""At most ``max(max_len, TABLE_ROWS)`` positions are cached, rounded up to ``ROUND``."""


class RopeCache:
    """Mixin of :class:`~posenc.torch_module.rotary.RotaryEmbedding`: :attr:`frequencies`, and
    the cos/sin cache they key; it reads the module's ``rotary_dim``, ``attention_factor`` and
    ``max_len``.

    Examples
    --------
    >>> from posenc.torch_module.rope_cache import RopeCache
    >>> from posenc.torch_module.rotary import RotaryEmbedding
    >>> isinstance(RotaryEmbedding(8), RopeCache)
    True
    """

    def _start_cache(self, omega) -> None:
        """Set the frequencies and an empty cache (from the module's ``__init__``)."""
        self.frequencies = omega
        self._cache: dict = {}

    @property
    def frequencies(self) -> np.ndarray:
        """The ``rotary_dim // 2`` frequencies (float64, read-only); setting them rebuilds the
        cache on the next call (chapter 16, "A decoder with posenc's torch functions").

        Examples
        --------
        >>> from posenc.torch_module.rotary import RotaryEmbedding
        >>> rope = RotaryEmbedding(8)
        >>> rope.frequencies.tolist()
        [1.0, 0.1, 0.01, 0.001]
        >>> rope.frequencies = rope.frequencies / 2
        >>> rope.frequencies.tolist()
        [0.5, 0.05, 0.005, 0.0005]
        """
        return self._omega

    @frequencies.setter
    def frequencies(self, omega) -> None:
        """Set new frequencies (checked: ``rotary_dim // 2`` positive finite numbers).

        Examples
        --------
        >>> from posenc.torch_module.rotary import RotaryEmbedding
        >>> rope = RotaryEmbedding(4)
        >>> rope.frequencies = [1.0, -0.5]
        Traceback (most recent call last):
        ...
        ValueError: frequencies must be 2 positive finite numbers (rotary_dim // 2), got array([ 1. , -0.5])
        """
        given = omega
        if isinstance(omega, torch.Tensor):
            omega = omega.detach().cpu().to(torch.float64).numpy()
        try:                       # None, a str, a dict ...: refused below, showing the value
            omega = None if omega is None or isinstance(omega, str) else \
                np.array(omega, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            omega = None
        if omega is None or omega.shape != (self.rotary_dim // 2,) or \
                not np.all(np.isfinite(omega)) or np.any(omega <= 0):
            raise ValueError(f"frequencies must be {self.rotary_dim // 2} positive finite "
                             f"numbers (rotary_dim // 2), got "
                             f"{given if omega is None else omega!r}")
        omega.setflags(write=False)
        self._omega = omega
        # on the CPU whatever the default device: built under ``with torch.device("meta")`` a
        # meta copy would have no data after ``to_empty`` (not a buffer, so nothing fills it)
        self._omega_t = torch.tensor(omega, dtype=torch.float64, device="cpu")
        self._omega_on: dict = {}
        self._key = omega.tobytes()

    def _omega_for(self, device) -> torch.Tensor:
        if torch.compiler.is_compiling():
            return self._omega_t.to(device)
        omega = self._omega_on.get(device)
        if omega is None:
            omega = self._omega_on[device] = self._omega_t.to(device)
        return omega

    def _cacheable(self, needed: int) -> bool:           # TABLE_ROWS
        return needed <= max(self.max_len, TABLE_ROWS)

    def _table(self, needed: int, device) -> tuple[torch.Tensor, torch.Tensor]:
        """The cached float32 cos/sin, one per pair, for positions ``0 .. L - 1``,
        ``L >= needed`` (class Notes)."""
        key = (self._key, self.attention_factor, str(device))               # all it uses
        entry = self._cache.get(key)
        have = 0 if entry is None else entry[0].shape[0]
        if entry is None or have < needed:             # needed 0 (no tokens) builds it too
            length = max(needed, min(max(self.max_len, have + have // GROWTH),
                                     max(self.max_len, TABLE_ROWS)))
            length = -(-length // ROUND) * ROUND
            pos = torch.arange(have, length, device=device)
            cos, sin = rope_cos_sin(pos, self._omega_for(device),
                                    attention_factor=self.attention_factor)
            if entry is not None:                              # the same values, elementwise
                cos, sin = torch.cat([entry[0], cos]), torch.cat([entry[1], sin])
            # one table per device: frequencies set per length (dynamic NTK) must not pile up
            for stale in [old for old in self._cache if old[2] == key[2]]:
                del self._cache[stale]
            entry = self._cache[key] = (cos, sin)
        return entry

    def clear_cache(self) -> None:
        """Drop the cos/sin cache (it is built again on the next call, as at first: class Notes).

        Examples
        --------
        >>> import torch
        >>> from posenc.torch_module.rotary import RotaryEmbedding
        >>> rope = RotaryEmbedding(128)
        >>> q = torch.zeros(1, 1, 1, 128)
        >>> _ = rope(q, q, offset=131071)
        >>> rope.cache_nbytes / 2**20                      # MiB: 131072 positions
        64.0
        >>> rope.clear_cache()
        >>> rope.cache_nbytes
        0
        """
        self._cache.clear()

    @property
    def cache_nbytes(self) -> int:
        """Bytes held by the cos/sin cache, all devices.

        Examples
        --------
        >>> import torch
        >>> from posenc.torch_module.rotary import RotaryEmbedding
        >>> rope = RotaryEmbedding(64, max_len=1000)
        >>> q = torch.zeros(1, 1, 3, 64)
        >>> _ = rope(q, q), rope(q.bfloat16(), q.bfloat16())       # one table for both
        >>> rope.cache_nbytes, 1024 * 4 * 64                         # 1000 rounded up to 1024
        (262144, 262144)
        """
        return sum(t.numel() * t.element_size() for entry in self._cache.values()
                   for t in entry)
