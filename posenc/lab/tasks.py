"""Seeded synthetic tasks for the lab, chosen so that position decides the answer (chapter
"What does a trained model do with the encoding?").

- ``"kback"``: at every position ``p >= k`` output the symbol at ``p - k`` (``k = 1`` is
  "the previous token"). Positions ``p < k`` have no answer and are marked ``IGNORE``.
- ``"first_last"``: one answer per sequence, 1 if the first symbol is larger than the last, else
  0. The first and last symbols always differ, so an order-blind model can do no better than
  0.5: a permutation of the sequence swaps which symbol is first as often as not.
"""

from __future__ import annotations

import numbers

import torch

TASKS = ("kback", "first_last")
IGNORE = -100          # target of a position with no answer (torch's cross-entropy default)


def check_task(task) -> str:
    """``task`` if it is one of :data:`TASKS`, else a ``ValueError`` naming it.

    Examples
    --------
    >>> from posenc.lab.tasks import check_task
    >>> check_task("kback")
    'kback'
    """
    if not isinstance(task, str) or task not in TASKS:
        allowed = ", ".join(repr(t) for t in TASKS)
        raise ValueError(f"task must be one of {allowed}, got {task!r}")
    return task


def n_outputs(task: str, vocab: int) -> int:
    """Classes the model predicts: ``vocab`` symbols for kback, 2 for first_last.

    Examples
    --------
    >>> from posenc.lab.tasks import n_outputs
    >>> n_outputs("kback", 16), n_outputs("first_last", 16)
    (16, 2)
    """
    return vocab if check_task(task) == "kback" else 2


def batch(task: str, size: int, length: int, *, vocab: int = 16, k: int = 3,
          generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """One batch of a task: symbols ``(size, length)`` and targets.

    Parameters
    ----------
    task : {"kback", "first_last"}
    size, length, vocab, k : int
        Sequences, positions per sequence, symbols, and the offset of kback (``k < length``).
    generator : torch.Generator, optional
        Source of randomness; the same seed gives the same batch.

    Returns
    -------
    tokens : torch.Tensor
        ``(size, length)`` symbol ids in ``0 .. vocab - 1``.
    targets : torch.Tensor
        kback: ``(size, length)``, ``IGNORE`` before position k; first_last: ``(size,)``.

    Examples
    --------
    >>> import torch
    >>> from posenc.lab.tasks import batch
    >>> x, y = batch("kback", 1, 6, k=2, generator=torch.Generator().manual_seed(0))
    >>> bool((y[0, 2:] == x[0, :4]).all()), y[0, :2].tolist()
    (True, [-100, -100])
    """
    check_task(task)
    for name, value in (("size", size), ("length", length), ("vocab", vocab), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if task == "kback" and k >= length:
        raise ValueError(f"k must be below length={length}, got {k}")
    if task == "first_last" and (vocab < 2 or length < 2):
        raise ValueError(f"first_last needs vocab >= 2 and length >= 2, got {vocab}, {length}")
    tokens = torch.randint(0, vocab, (size, length), generator=generator)
    if task == "kback":
        targets = torch.full_like(tokens, IGNORE)
        targets[:, k:] = tokens[:, :-k]
        return tokens, targets
    # first_last: redraw the last symbol from the vocab minus the first one
    shift = torch.randint(1, vocab, (size,), generator=generator)
    tokens[:, -1] = (tokens[:, 0] + shift) % vocab
    return tokens, (tokens[:, 0] > tokens[:, -1]).long()
