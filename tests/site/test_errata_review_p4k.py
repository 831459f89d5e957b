"""Claims page, first half (review-2026-12 p4k pass 4): a heading in quotation marks that names
a library docstring as its source quotes it word for word, read from the installed
transformers (5.24.0). The old headings abridged both docstrings ("This matches tensor2tensor,
but differs slightly from Section 3.5"; "Identical to XLM's create_sinusoidal_embeddings ...")
and the page's block only checked that a word of each occurs in the docstring."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def heading_quote(anchor: str) -> str:
    page = (ROOT / "docs/errata.md").read_text()
    match = re.search(r'^### "(.+)" \{#' + re.escape(anchor) + r"\}$", page, re.M)
    assert match, anchor
    return match.group(1)


def test_docstring_headings_are_verbatim():
    pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding

    assert transformers.__version__ == "5.24.0"
    m2m = flat(M2M100SinusoidalPositionalEmbedding.get_embedding.__doc__)
    marian = flat(MarianSinusoidalPositionalEmbedding.create_weight.__doc__)
    assert heading_quote("differs-slightly") in m2m
    assert heading_quote("marian-xlm") in marian


def test_padding_idx_entry_names_and_runs_the_library_version():
    """#padding-idx said 'Hugging Face's copy ... (M2M100)' with no version and re-derived the
    code in NumPy only (review-2026-12 p4k pass 4); the entry now names transformers 5.24.0 and
    its block runs M2M100's create_position_ids_from_input_ids and get_embedding."""
    page = (ROOT / "docs/errata.md").read_text()
    entry = page.split("{#padding-idx}")[1].split("\n### ")[0]
    assert "(M2M100, transformers 5.24.0)" in flat(entry)
    assert "M2M100.create_position_ids_from_input_ids(ids, 1)" in entry
    assert "M2M100.get_embedding(10, 8, padding_idx=1)" in entry
