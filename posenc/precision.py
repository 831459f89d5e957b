"""How precise is a table? The common ways of building or storing it, and their errors.

Each *method* returns the values a piece of code would produce, as float64 so they can be
compared. The "float32 angle" and "built in" methods of :data:`METHODS` give the same bits on
every machine: IEEE arithmetic and correctly rounded ``exp``, ``sin`` and ``cos``
(:mod:`posenc.rounding`). The three that round :func:`posenc.encode`'s float64 table inherit
its last-bit differences between CPUs (fused multiply-adds in its rotations), which rounding
hides except at an entry that close to a rounding boundary. So an error a method shows belongs
to the formula and the number format, not to one CPU's kernels. :data:`MACHINE_METHODS` runs
the tutorial's code with this machine's NumPy kernels instead, for comparison; its results
differ from CPU to CPU.

:func:`reference` evaluates every angle and sine directly in float64, which is within
about 1e-10 of the exact value up to position 10**6, far below float32's half unit in the last
place (2.98e-8). Sampling a few positions per decade keeps the cost small. Measured in the
chapter "How precise is the table?" (docs/chapters/13-how-precise-is-the-table.md).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._extras import require

mpmath = require("mpmath", "precision", "posenc.precision")

from . import rounding
from ._checks import check_base, check_d_model, check_positions
from .encoding import BASE, encode, frequencies
from .omega_forms import frequencies_as_written

METHODS = (
    "float32 angle (tutorial)",
    "float64, cast to float32",
    "float64, stored as float16",
    "float64, stored as bfloat16",
    "built in float16",
    "built in bfloat16",
)
"""The ways :func:`build` knows of building a table (on their bits, see the module docstring)."""

MACHINE_METHODS = ("float32 angle (tutorial), this machine's NumPy",)
"""The tutorial's float32 code run with this machine's NumPy kernels (varies by CPU)."""

OMEGA_FORMS = ("power", "exp")
"""``base ** (-2 i / d_model)`` and ``exp(2 i * -log(base) / d_model)``."""


def _check_method(method) -> str:
    if not isinstance(method, str) or method not in METHODS + MACHINE_METHODS:
        allowed = ", ".join(repr(m) for m in METHODS + MACHINE_METHODS)
        raise ValueError(f"method must be one of {allowed}, got {method!r}")
    return method


def to_bfloat16(x) -> np.ndarray:
    """Round to float32, then to the nearest bfloat16 (ties to even), returned as float32.

    bfloat16 keeps float32's 8 exponent bits and the top 7 of its 23 fraction bits, so rounding
    is integer arithmetic on the float32 bit pattern. A float64 value is rounded twice, as in
    PyTorch 2.13's CPU cast to ``torch.bfloat16`` (tested).

    Examples
    --------
    >>> from posenc.precision import to_bfloat16
    >>> to_bfloat16([1.0, 257.0, 3.14159])
    array([  1.     , 256.     ,   3.140625], dtype=float32)
    """
    arr = np.asarray(x)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"x must hold real numbers, got dtype {arr.dtype}")
    with np.errstate(over="ignore", under="ignore"):    # past float32's range: inf or 0, as torch
        x = np.ascontiguousarray(arr, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = rounded.astype(np.uint32).view(np.float32).copy()
    out[np.isnan(x)] = np.nan
    return out


def omega_in(dtype: str, d_model: int, base: float = BASE, form: str = "exp",
             kernels: str = "correctly rounded") -> np.ndarray:
    """The frequencies computed entirely in ``dtype`` ("float32" or "float16"), in one of the
    two forms code uses, returned as float64.

    A thin wrapper of :func:`posenc.omega_forms.frequencies_as_written`.

    Parameters
    ----------
    dtype : {"float32", "float16"}
    d_model : int
        A positive even integer.
    base : float, default 10000
    form : {"exp", "power"}, default "exp"
        ``"exp"`` is ``exp(2 i * (-log(base) / d_model))`` (the PyTorch tutorial's spelling;
        the factor is rounded to ``dtype``, while PyTorch's float16 tensors keep it in float32);
        ``"power"`` is ``base ** (-2 i / d_model)`` (the paper).
    kernels : {"correctly rounded", "numpy"}, default "correctly rounded"
        Correctly rounded ``exp`` and ``**`` (the same on every machine), or this machine's
        NumPy kernels.

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, float64.

    Examples
    --------
    >>> from posenc.precision import omega_in
    >>> omega_in("float32", 4, form="power")
    array([1.  , 0.01])
    """
    if dtype not in ("float32", "float16"):
        raise ValueError(f"dtype must be 'float32' or 'float16', got {dtype!r}")
    if form not in OMEGA_FORMS:
        raise ValueError(f"form must be 'power' or 'exp', got {form!r}")
    omega = frequencies_as_written(d_model, base, form=form, dtype=dtype, kernels=kernels)
    return omega.astype(np.float64)


def _sin_cos(angle: np.ndarray, dtype: str, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """sin and cos of finite angles in ``dtype``, correctly rounded or by NumPy; NaN where the
    angle is not finite (as sin(inf) is)."""
    if not exact:
        return np.sin(angle), np.cos(angle)
    finite = np.isfinite(angle)
    s = np.full(angle.shape, np.nan, dtype=angle.dtype)
    c = np.full(angle.shape, np.nan, dtype=angle.dtype)
    s[finite] = rounding.apply("sin", angle[finite], dtype)
    c[finite] = rounding.apply("cos", angle[finite], dtype)
    return s, c


def reference(pos, d_model: int, base: float = BASE) -> np.ndarray:
    """The interleaved table evaluated directly in float64 (angles, then sin and cos), without
    the rotation builder, so it is independent of :func:`posenc.encode`'s fast path.

    Examples
    --------
    >>> from posenc.precision import reference
    >>> reference([1], 2)
    array([[0.84147098, 0.54030231]])
    """
    positions = check_positions(pos)
    theta = np.multiply.outer(positions, frequencies(d_model, base))
    table = np.empty((theta.shape[0], 2 * theta.shape[1]))
    table[:, 0::2], table[:, 1::2] = np.sin(theta), np.cos(theta)
    return table


def build(method: str, pos, d_model: int, base: float = BASE) -> np.ndarray:
    """The interleaved table as ``method`` would build it, returned as float64.

    Parameters
    ----------
    method : str
        One of :data:`METHODS`:

        - ``"float32 angle (tutorial)"``: ``exp``-form frequencies, ``pos * omega`` and
          ``sin``/``cos``, all in float32 (the PyTorch tutorial), with
          correctly rounded ``exp``, ``sin`` and ``cos``;
        - ``"float32 angle (tutorial), this machine's NumPy"``: the same code with NumPy's
          kernels, which differ from CPU to CPU;
        - ``"float64, cast to float32"``: :func:`posenc.encode` with ``dtype="float32"``;
        - ``"float64, stored as float16"`` / ``"... bfloat16"``: the float64 table rounded
          once to float16 (NumPy's cast), to bfloat16 through float32 (PyTorch 2.13's CPU cast,
          which rounds to float16 through float32 too);
        - ``"built in float16"`` / ``"built in bfloat16"``: the tutorial's code on half-precision
          tensors, its products as PyTorch computes them on CPU (in float32, rounded to the half
          type; the Python factor ``-log(base) / d_model`` a float32 scalar); ``exp``, ``sin``
          and ``cos`` correctly rounded straight to float16, or to float32 and then to bfloat16
          (emulated by :func:`to_bfloat16`). PyTorch 2.13's CPU float16 ``sin`` and ``cos`` are not
          correctly rounded, so a rare entry differs from PyTorch's by one unit.
    pos : int or array_like
        Positions, as for :func:`posenc.encode`.
    d_model : int
    base : float, default 10000

    Returns
    -------
    numpy.ndarray
        Shape ``(len(positions), d_model)``, float64; ``nan`` where the method overflows.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.precision import build
    >>> bool(build("built in float16", [2049], 2)[0, 0] == np.sin(2048.0).astype(np.float16))
    True
    """
    method = _check_method(method)
    positions = check_positions(pos)
    d_model = check_d_model(d_model)
    base = check_base(base)
    if method == "float64, cast to float32":
        return encode(positions, d_model, base=base, dtype="float32").astype(np.float64)
    if method == "float64, stored as float16":
        return encode(positions, d_model, base=base).astype(np.float16).astype(np.float64)
    if method == "float64, stored as bfloat16":
        return to_bfloat16(encode(positions, d_model, base=base)).astype(np.float64)
    if method == "built in bfloat16":
        # each operation computed in float32 and rounded to bfloat16, as PyTorch does on CPU
        p = to_bfloat16(positions)[:, None]
        two_i = to_bfloat16(np.arange(0, d_model, 2))
        log_base = float(rounding.apply("log", [base], "float64")[0])   # 40 digits
        argument = to_bfloat16(two_i * np.float32(-log_base / d_model))   # a float32 scalar
        omega = to_bfloat16(rounding.apply("exp", argument, "float32"))
        angle = to_bfloat16(p * omega)
        table = np.empty((len(positions), d_model), dtype=np.float32)
        s, c = _sin_cos(angle, "float32", exact=True)
        table[:, 0::2], table[:, 1::2] = to_bfloat16(s), to_bfloat16(c)
        return table.astype(np.float64)
    exact = method not in MACHINE_METHODS
    name = "float16" if method == "built in float16" else "float32"
    t = np.dtype(name).type
    with np.errstate(over="ignore", invalid="ignore"):
        p = positions.astype(t)[:, None]       # float16: inf from 65520
        if name == "float16":        # half tensor times a float32 scalar, rounded once
            log_base = float(rounding.apply("log", [base], "float64")[0])   # 40 digits
            two_i = np.arange(0, d_model, 2).astype(np.float16).astype(np.float32)
            argument = (two_i * np.float32(-log_base / d_model)).astype(np.float16)
            omega = rounding.apply("exp", argument, "float16")
        else:
            omega = omega_in(name, d_model, base, form="exp",
                             kernels="correctly rounded" if exact else "numpy").astype(t)
        angle = p * omega                      # IEEE multiplication
        table = np.empty((len(positions), d_model), dtype=t)
        table[:, 0::2], table[:, 1::2] = _sin_cos(angle, name, exact)
    return table.astype(np.float64)


def sample_positions(first_decade: int = 1, last_decade: int = 6, per_decade: int = 16,
                     seed: int = 0) -> np.ndarray:
    """Integer positions spread over the decades ``[10**k, 10**(k+1))``, plus ``10**last``.

    Each decade gets its two ends and ``per_decade - 2`` random integers, log-uniform; a repeated
    draw counts once (at seed 0, decade 10 to 99 holds 11 distinct positions at 16). The decade's top is always in the sample, but its worst position need not be: a maximum over
    the sample is a lower bound of the decade's worst case (chapter 13 measures by how much).

    Examples
    --------
    >>> from posenc.precision import sample_positions
    >>> sample_positions(1, 2, per_decade=2)
    array([ 10,  99, 100])
    >>> len(sample_positions(1, 2, per_decade=16)) - 1   # distinct in 10 to 99
    11
    """
    if not all(isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))
               for x in (first_decade, last_decade, per_decade)):
        raise TypeError("first_decade, last_decade and per_decade must be integers")
    first_decade, last_decade, per_decade = int(first_decade), int(last_decade), int(per_decade)
    if not 0 <= first_decade < last_decade <= 15:
        raise ValueError("need 0 <= first_decade < last_decade <= 15, got "
                         f"first_decade={first_decade}, last_decade={last_decade}")
    if per_decade < 2:
        raise ValueError(f"per_decade must be >= 2, got {per_decade}")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an integer >= 0, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed}")
    rng = np.random.default_rng(seed)
    out = []
    for k in range(first_decade, last_decade):
        lo, hi = 10**k, 10 ** (k + 1) - 1
        inner = np.floor(10 ** rng.uniform(k, k + 1, per_decade - 2)).astype(np.int64)
        out.append(np.unique(np.concatenate([[lo, hi], np.clip(inner, lo, hi)])))
    out.append(np.array([10**last_decade]))
    return np.concatenate(out)


def row_errors(method: str, pos, d_model: int, base: float = BASE) -> np.ndarray:
    """Largest ``|method - reference|`` over each row (position); ``nan`` where ``method``
    gives ``inf`` or ``nan``.

    Examples
    --------
    >>> from posenc.precision import row_errors
    >>> float(row_errors("float64, cast to float32", [1000], 64)[0]) < 3e-8
    True
    """
    got = build(method, pos, d_model, base)
    err = np.abs(got - reference(pos, d_model, base))
    err[~np.isfinite(err)] = np.nan
    with np.errstate(invalid="ignore"):
        worst = err.max(axis=1)                 # nan if any entry of the row is nan
    return worst


def decade_errors(methods=METHODS, d_model: int = 512, first_decade: int = 1,
                  last_decade: int = 6, per_decade: int = 16, base: float = BASE) -> dict:
    """Largest error of each method over the sampled positions of each decade.

    Returns
    -------
    dict
        ``{method: [max error in [10**k, 10**(k+1)) for k in first..last-1]}``; the last decade
        also holds ``10**last_decade``. ``nan`` marks a decade where the method overflows.

    Examples
    --------
    >>> from posenc.precision import decade_errors
    >>> e = decade_errors(["float32 angle (tutorial)"], d_model=64, last_decade=3, per_decade=4)
    >>> [f"{x:.2e}" for x in e["float32 angle (tutorial)"]]      # 10 to 99, 100 to 1000
    ['2.84e-06', '2.78e-05']
    """
    if isinstance(methods, str):
        raise TypeError(f"methods must be a list of method names, got the string {methods!r}; "
                        f"write [{methods!r}]")
    try:
        methods = [_check_method(m) for m in methods]    # a generator is read once
    except TypeError:
        raise TypeError(f"methods must be a list of method names, got {methods!r}") from None
    positions = sample_positions(first_decade, last_decade, per_decade)
    decade = np.minimum(np.floor(np.log10(positions)).astype(int), last_decade - 1)
    out = {}
    for m in methods:
        errs = row_errors(m, positions, d_model, base)
        out[m] = [float(np.max(errs[decade == k])) for k in range(first_decade, last_decade)]
    return out
