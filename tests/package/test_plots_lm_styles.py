"""The language model's figure tells its five schemes apart (chapter 10b): no two lines share a
colour or a dash, and no colour is the palette's sky blue next to its blue."""

import matplotlib

matplotlib.use("Agg")

from posenc.plots.lm import loss_by_position  # noqa: E402


def test_five_schemes_have_distinct_colours_and_dashes():
    run = {"per_position": [2.0] * 8, "window_loss": {"2": 2.0, "4": 2.1}}
    labels = ["sinusoid", "rope", "alibi", "none", "learned"]
    rec = {"lm_configs": {k: {"length": 2} for k in labels}, "runs": {k: [run] for k in labels}}
    left = loss_by_position(rec, bin_width=2).axes[0]
    lines = [line for line in left.get_lines() if line.get_label() in labels]
    colours = [matplotlib.colors.to_hex(line.get_color()) for line in lines]
    assert len(lines) == 5 and len(set(colours)) == 5
    assert len({(line.get_linestyle(), tuple(line._dash_pattern[1] or ())) for line in lines}) == 5
    assert "#56b4e9" not in colours and "#f0e442" not in colours
