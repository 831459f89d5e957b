"""The rope-config reader: a ``transformers`` RoPE block to :class:`RotaryEmbedding` arguments.

One registry, :data:`ROPE_TYPES`, holds each ``rope_type`` posenc reads: its keys and its
frequencies. :meth:`RotaryEmbedding.from_rope_parameters` reads a block through
:func:`read_rope_parameters`, and the tests take their list of types from the registry; a new
``rope_type`` is one entry here and a case in ``CONFIGS`` (``tests/package/test_torch_rotary.py``) and
in ``CASES`` (``tests/package/test_hf_recipe.py``). See the chapter "How do positions behave in a running model?"
(docs/chapters/16-positions-in-a-running-model.md).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Callable

from .. import scaling
from .._checks import check_base
from ..encoding import frequencies as paper_frequencies


def _default(params, dim, base, factor, original, seq_len, max_position_embeddings, attention):
    return paper_frequencies(dim, base), attention


def _linear(params, dim, base, factor, original, seq_len, max_position_embeddings, attention):
    return scaling.position_interpolation(dim, factor, base), attention


def _dynamic(params, dim, base, factor, original, seq_len, max_position_embeddings, attention):
    omega = scaling.dynamic_ntk_frequencies(
        dim, factor, max_position_embeddings,
        seq_len if seq_len else max_position_embeddings, base)
    return omega, attention


def _yarn(params, dim, base, factor, original, seq_len, max_position_embeddings, attention):
    alpha, beta = params.get("beta_slow") or 1.0, params.get("beta_fast") or 32.0
    truncate = params.get("truncate", True)
    if factor >= 1:
        omega = scaling.yarn_frequencies(dim, factor, original, base, alpha=alpha,
                                         beta=beta, truncate=truncate)
    else:                     # transformers' blend at s < 1 (scaling refuses it as a reference)
        gamma = scaling.yarn_ramp(dim, original, base, alpha=alpha, beta=beta,
                                  truncate=truncate)
        omega = paper_frequencies(dim, base)
        omega = (1.0 - gamma) * omega / factor + gamma * omega
    if attention is None:
        mscale, mscale_all = params.get("mscale"), params.get("mscale_all_dim")
        attention = 1.0 if factor <= 1 else \
            scaling.yarn_attention_factor(factor, mscale=mscale,
                                          mscale_all_dim=mscale_all) \
            if mscale and mscale_all else scaling.yarn_attention_factor(factor)
    return omega, attention


def _llama3(params, dim, base, factor, original, seq_len, max_position_embeddings, attention):
    omega = scaling.llama3_frequencies(
        dim, factor, original, base, low_freq_factor=params["low_freq_factor"],
        high_freq_factor=params["high_freq_factor"])
    return omega, attention


def _longrope(params, dim, base, factor, original, seq_len, max_position_embeddings, attention):
    if attention is None:
        attention = 1.0 if factor <= 1 else \
            scaling.longrope_attention_factor(factor, original)
    omega = scaling.longrope_frequencies(dim, params["short_factor"],
                                         params["long_factor"], original, seq_len, base)
    return omega, attention


@dataclass(frozen=True)
class RopeType:
    """One ``rope_type`` of :data:`ROPE_TYPES`: the keys transformers 5.24.0 requires and
    allows for it (besides ``rope_type``, ``rope_theta`` and ``partial_rotary_factor``), and the
    function giving its frequencies and attention factor.

    ``frequencies(params, dim, base, factor, original, seq_len, max_position_embeddings,
    attention)`` returns ``(omega, attention)``: the ``dim // 2`` frequencies, and the attention
    factor (``None`` for 1). ``needs_max_position_embeddings``: the type cannot be read without
    the model's context length (``dynamic``). ``factor_from_lengths``: a ``factor`` of ``None``
    is ``max_position_embeddings / original_max_position_embeddings`` (``yarn``,
    ``longrope``).

    Examples
    --------
    >>> from posenc.torch_module.rope_config import ROPE_TYPES
    >>> sorted(ROPE_TYPES["llama3"].required)
    ['factor', 'high_freq_factor', 'low_freq_factor', 'original_max_position_embeddings']
    """

    required: frozenset
    optional: frozenset
    frequencies: Callable
    needs_max_position_embeddings: bool = False
    factor_from_lengths: bool = False


_YARN_OPTIONAL = {"attention_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim",
                  "truncate"}
_LLAMA3 = {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"}

ROPE_TYPES = {
    "default": RopeType(frozenset(), frozenset(), _default),
    "linear": RopeType(frozenset({"factor"}), frozenset(), _linear),
    "dynamic": RopeType(frozenset({"factor"}), frozenset(), _dynamic,
                        needs_max_position_embeddings=True),
    "yarn": RopeType(frozenset({"factor", "original_max_position_embeddings"}),
                     frozenset(_YARN_OPTIONAL), _yarn, factor_from_lengths=True),
    "llama3": RopeType(frozenset(_LLAMA3), frozenset(), _llama3),
    "longrope": RopeType(frozenset({"short_factor", "long_factor",
                                    "original_max_position_embeddings"}),
                         frozenset({"attention_factor", "factor"}), _longrope,
                         factor_from_lengths=True),
}
"""The rope types :meth:`RotaryEmbedding.from_rope_parameters` reads, one :class:`RopeType`
each."""

ROPE_KEYS = {kind: (set(entry.required), set(entry.optional))
             for kind, entry in ROPE_TYPES.items()}
"""The keys :meth:`RotaryEmbedding.from_rope_parameters` reads per ``rope_type``: (required,
optional), besides ``rope_type``, ``rope_theta`` and ``partial_rotary_factor``; those of
transformers 5.24.0's ``_validate_*_rope_parameters`` (checked in ``tests/package/test_torch_misuse.py``)."""


def read_rope_parameters(params: dict, head_dim: int, *, rope_theta: float | None = None,
                         partial_rotary_factor: float | None = None,
                         seq_len: int | None = None,
                         max_position_embeddings: int | None = None) -> dict:
    """The :class:`RotaryEmbedding` arguments (``base``, ``frequencies``, ``rotary_dim``,
    ``attention_factor``) of a RoPE block, read as
    :meth:`RotaryEmbedding.from_rope_parameters` documents (its errors included).

    Examples
    --------
    >>> from posenc.torch_module.rope_config import read_rope_parameters
    >>> args = read_rope_parameters({"rope_type": "linear", "factor": 4.0}, 8,
    ...                             rope_theta=10000.0)
    >>> args["frequencies"].tolist(), args["rotary_dim"], args["attention_factor"]
    ([0.25, 0.025, 0.0025, 0.00025], 8, 1.0)
    """
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict (config.rope_parameters, or a "
                        f"transformers-4 rope_scaling block), got {type(params).__name__}")
    kind = params.get("rope_type", params.get("type"))
    if kind is None:
        scaling_keys = sorted(set(params) - {"rope_theta", "partial_rotary_factor"})
        if scaling_keys:
            raise ValueError(f"rope_type: the block has {scaling_keys} but no 'rope_type' "
                             f"(or 'type'); transformers 5.24.0 reads it as 'default' and "
                             f"ignores them. Name the rope_type")
        kind = "default"
    if kind not in ROPE_TYPES:
        raise ValueError(f"rope_type must be one of {sorted(ROPE_TYPES)}, got {kind!r}")
    entry = ROPE_TYPES[kind]
    required, optional = entry.required, entry.optional
    known = required | optional | {"rope_type", "type", "rope_theta", "partial_rotary_factor"}
    unknown = sorted(set(params) - known)
    if unknown:
        raise ValueError(f"{', '.join(map(repr, unknown))}: not a key of rope_type {kind!r} "
                         f"(its keys: "
                         f"{sorted(required | optional)}, and rope_theta, "
                         f"partial_rotary_factor)")
    theta = params.get("rope_theta", rope_theta)
    if theta is None:
        raise ValueError("rope_theta: the block has none, and none was passed beside it. A "
                         "transformers-4 config.json keeps it beside rope_scaling: pass "
                         "rope_theta=config['rope_theta'] (transformers would take its model "
                         "class's default_theta, 10000.0 for most)")
    base = check_base(theta)
    original = params.get("original_max_position_embeddings", max_position_embeddings)
    if "original_max_position_embeddings" in required and original is None:
        raise ValueError(f"rope_type {kind!r} needs the model's original context length: "
                         "pass max_position_embeddings= (the config's) or put "
                         "'original_max_position_embeddings' in the rope parameters")
    if entry.needs_max_position_embeddings and max_position_embeddings is None:
        raise ValueError(f"rope_type {kind!r} needs the model's context length: pass "
                         "max_position_embeddings= (the config's)")
    missing = sorted(required - set(params) - {"original_max_position_embeddings"})
    if missing:
        raise ValueError(f"{', '.join(map(repr, missing))}: rope_type {kind!r} needs "
                         f"{'it' if len(missing) == 1 else 'them'} (transformers 5.24.0 "
                         f"raises KeyError too)")
    dim = _rotary_dim(params.get("partial_rotary_factor", partial_rotary_factor), head_dim)
    factor = params.get("factor")
    if factor is not None and (isinstance(factor, bool) or
                               not isinstance(factor, numbers.Real) or not factor > 0):
        raise ValueError(f"factor must be a positive number, got {factor!r}")
    if entry.factor_from_lengths and factor is None:
        if max_position_embeddings is None:
            raise ValueError(f"rope_type {kind!r} with 'factor' None needs "
                             "max_position_embeddings= (the config's): factor = "
                             "max_position_embeddings / original_max_position_embeddings")
        factor = max_position_embeddings / original
    omega, attention = entry.frequencies(params, dim, base, factor, original, seq_len,
                                         max_position_embeddings,
                                         params.get("attention_factor"))
    return {"base": base, "frequencies": omega, "rotary_dim": dim,
            "attention_factor": 1.0 if attention is None else float(attention)}


def _rotary_dim(fraction, head_dim: int) -> int:
    """``int(head_dim * partial_rotary_factor)``, refused when it is 0 or odd."""
    fraction = 1.0 if fraction is None else fraction
    if isinstance(fraction, bool) or not isinstance(fraction, numbers.Real) or \
            not 0 < fraction <= 1:
        raise ValueError(f"partial_rotary_factor must be a number in (0, 1], got "
                         f"{fraction!r}")
    dim = int(head_dim * fraction)
    if dim == 0:
        raise ValueError(f"partial_rotary_factor={fraction!r} gives int({head_dim} * "
                         f"{fraction!r}) = 0 rotated coordinates (transformers rotates "
                         f"none)")
    if dim % 2:
        raise ValueError(f"partial_rotary_factor={fraction!r} gives int({head_dim} * "
                         f"{fraction!r}) = {dim} rotated coordinates, an odd number "
                         f"(transformers rotates {dim + 1}, with frequencies over {dim})")
    return dim


class FromRopeParameters:
    """:meth:`from_rope_parameters` for :class:`~posenc.torch_module.rotary.RotaryEmbedding`:
    its constructor from a ``transformers`` RoPE block, kept beside the reader it calls.

    Examples
    --------
    >>> from posenc.torch_module import RotaryEmbedding
    >>> from posenc.torch_module.rope_config import FromRopeParameters
    >>> issubclass(RotaryEmbedding, FromRopeParameters)
    True
    >>> RotaryEmbedding.from_rope_parameters({"rope_type": "linear", "factor": 2.0,
    ...                                       "rope_theta": 10000.0}, 8).frequencies.tolist()
    [0.5, 0.05, 0.005, 0.0005]
    """

    @classmethod
    def from_rope_parameters(cls, params: dict, head_dim: int, *, rope_theta: float | None = None,
                             partial_rotary_factor: float | None = None,
                             seq_len: int | None = None,
                             max_position_embeddings: int | None = None,
                             pairing: str = "halves", max_len: int = 2048, **kwargs
                             ):
        """Build from a ``transformers`` config's RoPE block: transformers 5's
        ``rope_parameters``, or transformers 4's ``rope_scaling`` with the config's top-level
        ``rope_theta`` (and ``partial_rotary_factor``) passed beside it.

        Read as transformers 5.24.0 reads it (``RotaryEmbeddingConfigMixin``), by
        :func:`~posenc.torch_module.rope_config.read_rope_parameters`: ``rope_type`` (or the
        older ``type``) is a key of :data:`~posenc.torch_module.rope_config.ROPE_TYPES`, with
        the keys transformers requires and allows for it (:data:`ROPE_KEYS`); a value in the
        block wins over the one passed beside it; ``original_max_position_embeddings``, when
        missing, is ``max_position_embeddings``.
        Where transformers warns and goes on, posenc raises, naming the key:

        * no ``rope_theta`` in the block or beside it (transformers takes its model class's
          ``default_theta``, 10000 for most, which is not Llama 3.1's 500000);
        * a key it does not know for the ``rope_type`` (a misspelt key is otherwise ignored);
        * scaling keys with no ``rope_type`` (transformers reads the block as ``"default"`` and
          drops the ``factor``);
        * a missing key transformers also requires (it raises ``KeyError``);
        * a ``partial_rotary_factor`` giving an odd width (transformers rotates one coordinate
          more) or none (transformers rotates nothing).

        ``dynamic`` and ``longrope`` depend on the length: ``seq_len`` (default: the original
        length) picks their frequencies; set :attr:`frequencies` again when it changes
        (:class:`~posenc.torch_module.hf.TransformersRotaryEmbedding` does it as transformers
        does).
        transformers' dynamic keeps the longest length seen (``max_seq_len_cached``) until a call
        shorter than the original length resets it, so to give its frequencies pass that
        length, not the current one. ``factor < 1`` (YaRN, LongRoPE) is accepted, as
        transformers does, with attention factor 1. Other arguments go to the constructor.

        Examples
        --------
        >>> from posenc.torch_module.rotary import RotaryEmbedding
        >>> rope = RotaryEmbedding.from_rope_parameters(
        ...     {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0,
        ...      "original_max_position_embeddings": 2048}, head_dim=64)
        >>> round(rope.attention_factor, 4)
        1.1386
        >>> llama31 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
        ...            "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
        >>> RotaryEmbedding.from_rope_parameters(llama31, 128, rope_theta=500000.0).base
        500000.0
        >>> RotaryEmbedding.from_rope_parameters(llama31, 128)
        Traceback (most recent call last):
        ...
        ValueError: rope_theta: the block has none, and none was passed beside it. A transformers-4 config.json keeps it beside rope_scaling: pass rope_theta=config['rope_theta'] (transformers would take its model class's default_theta, 10000.0 for most)
        """
        return cls(head_dim, pairing=pairing, max_len=max_len,
                   **read_rope_parameters(params, head_dim, rope_theta=rope_theta,
                                          partial_rotary_factor=partial_rotary_factor,
                                          seq_len=seq_len,
                                          max_position_embeddings=max_position_embeddings),
                   **kwargs)
