"""Two statements of docs/bugs-that-shipped.md's llama3 entry held against transformers 5.24.0's
`llama3` frequencies. The page's rules bind a prose number by its presence anywhere in the section,
and a word such as "quarter" not at all: writing "4 times too fast" for "8 times", or "a half" for
"a quarter", left every check of the page passing (review-2026-12 p9a pass 9)."""
import re
from pathlib import Path

import numpy as np

PAGE = Path(__file__).resolve().parents[2] / "docs" / "bugs-that-shipped.md"
FRACTION = {"quarter": 4, "third": 3, "half": 2}


def entry() -> str:
    text = PAGE.read_text().split("{#llama3-not-applied}", 1)[1].split("\n## ", 1)[0]
    return re.sub(r"\s+", " ", text)


def llama3_ratio():
    """Llama-3.1's head (width 128, base 500000): unscaled over scaled frequency, per pair."""
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    config = LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                         max_position_embeddings=131072, rope_theta=500000.0,
                         rope_scaling={"rope_type": "llama3", "factor": 8.0,
                                       "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                       "original_max_position_embeddings": 8192})
    scaled = ROPE_INIT_FUNCTIONS["llama3"](config, "cpu")[0].double().numpy()
    plain = 500000.0 ** (-np.arange(0, 128, 2) / 128)
    return plain, plain / scaled


def test_the_slow_pairs_speed_up_is_the_one_stated():
    stated = re.search(r"the slow pairs turn (\d+) times too fast", entry())
    _, ratio = llama3_ratio()
    assert stated and int(stated.group(1)) == round(float(ratio.max())), stated


def test_the_kept_pairs_end_at_the_fraction_stated():
    stated = re.search(r"shorter than a (quarter|third|half) of the original 8192", entry())
    assert stated, "the sentence naming the kept pairs' bound"
    plain, ratio = llama3_ratio()
    wavelength = 2 * np.pi / plain
    kept = np.isclose(ratio, 1.0, rtol=1e-6)
    bound = 8192 / FRACTION[stated.group(1)]
    assert wavelength[kept].max() < bound <= wavelength[~kept].min(), (
        wavelength[kept].max(), bound, wavelength[~kept].min())
