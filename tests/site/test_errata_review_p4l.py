"""The claims page's second half (#wavelength-table to the end), as review-2026-12 p4l pass 4 left it.

- #hf-llama-permute quotes the converter's ``permute`` as the script writes it (the page had
  substituted ``dim`` for the parameters ``dim1`` and ``dim2``; the script permutes the keys of
  grouped-query models with ``dim1 = key_value_dim``, so the substitution is not the script's code);
- #no-easy-way's "final loss unsettled" is bound to the records: in each seed the logged loss
  rises again from step 300 on.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "errata.md"

# huggingface/transformers src/transformers/models/llama/convert_llama_weights_to_hf.py, def permute
CONVERTER = "w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)"


def entry(name: str) -> str:
    page = PAGE.read_text()
    start = page.index("{#" + name + "}")
    return re.sub(r"\s+", " ", page[start:page.index("\n### ", start)])


def test_the_permute_quote_is_the_converters_code():
    text = entry("hf-llama-permute")
    assert f"`{CONVERTER}`" in text
    assert "dim // n_heads // 2, 2, dim)" not in text


def test_unsettled_final_loss_is_what_the_records_show():
    text = entry("no-easy-way")
    assert "unsettled" in text
    runs = json.loads((ROOT / "docs" / "data" / "lab" / "offset.json").read_text())["runs"]
    for run in runs["index"]:
        late = [loss for step, loss in run["curve"] if step >= 300]
        assert any(b > a for a, b in zip(late, late[1:]))
