"""The lab's experiments by their older address: every name it held, re-exported from its module.

Chapter "What does a trained model do with the encoding?" imports them from here.

- :mod:`posenc.lab.checks`: :class:`~posenc.lab.checks.Check`, the verdict check;
- :mod:`posenc.lab.table`: :class:`~posenc.lab.table.Experiment` and experiments 1-8;
- :mod:`posenc.lab.table_axes`: experiments 9-15 and :data:`EXPERIMENTS`;
- :mod:`posenc.lab.record`: :func:`~posenc.lab.record.code_hash`, running, the records and the
  machine they ran on.

Examples
--------
>>> from posenc.lab import experiments, record
>>> experiments.load is record.load
True
"""

from __future__ import annotations

from .checks import Check
from .lengths import LengthConfig, mean_kback_float
from .record import (RECORDS, SIMD_FLAGS, code_hash, code_only, decide, environment, jobs_of, load,
                     machine, run_experiments, simd, verdict)
from .run import Config, run
from .table import (ATTENTION, AXIS_SEEDS, BLIND_PAST_L, CODE, CONCAT, INDEX, INDEX_BASE, L_TEST,
                    L_TRAIN, LEARNED, N_SEEN, N_UNSEEN, OFFSET, OFFSET_BASE, OFFSET_LENGTHS, ORDER,
                    ORDER_BASE, PAST, PAST_BASE, PAST_CONFIGS, SCALE, SCALED, SEEDS, SHIFT, T2T,
                    Experiment)
from .table_axes import (AXES, BUDGET, BUDGET_BASE, BUDGET_STEPS, EXPERIMENTS, HEADS, HEADS_ONLY,
                         LENGTH_BASE, LENGTH_CODE, LONGER, LONGER_CONFIGS, LONGER_STEPS, N_RATIO,
                         RATIO, RATIO_CONFIGS, RATIOS, REVERSE, REVERSE_BASE, REVERSE_LENGTHS,
                         REVERSE_SCHEMES, SAME, START, START_CONFIGS, STARTX, WIDE, WIDE_ALIBI,
                         WIDTH_ONLY)

__all__ = [
    "AXES", "ATTENTION", "AXIS_SEEDS", "BLIND_PAST_L", "BUDGET", "BUDGET_BASE", "BUDGET_STEPS",
    "CODE", "CONCAT", "Check", "Config", "EXPERIMENTS", "Experiment", "HEADS", "HEADS_ONLY",
    "INDEX", "INDEX_BASE", "LEARNED", "LENGTH_BASE", "LENGTH_CODE", "LONGER", "LONGER_CONFIGS",
    "LONGER_STEPS", "L_TEST", "L_TRAIN", "LengthConfig", "N_RATIO", "N_SEEN", "N_UNSEEN",
    "OFFSET", "OFFSET_BASE", "OFFSET_LENGTHS", "ORDER", "ORDER_BASE", "PAST", "PAST_BASE",
    "PAST_CONFIGS", "RATIO", "RATIOS", "RATIO_CONFIGS", "RECORDS", "REVERSE", "REVERSE_BASE",
    "REVERSE_LENGTHS", "REVERSE_SCHEMES", "SAME", "SCALE", "SCALED", "SEEDS", "SHIFT",
    "SIMD_FLAGS", "START", "START_CONFIGS", "STARTX", "T2T", "WIDE", "WIDE_ALIBI", "WIDTH_ONLY",
    "code_hash", "code_only", "decide", "environment", "jobs_of", "load", "machine",
    "mean_kback_float", "run", "run_experiments", "simd", "verdict"]
