"""Edges of the docstrings of posenc's encoding, variants, distances and omega_forms modules,
checked against references built without posenc (review-2026-12 p9h, pass 3)."""
import inspect

import numpy as np
import pytest
import torch

import posenc.distances as dist
import posenc.encoding as enc
import posenc.omega_forms as forms
import posenc.torch_module.table as tab
import posenc.variants as var


def flat(doc) -> str:
    return " ".join(inspect.getdoc(doc).split())


def test_integers_past_2_53_are_refused_not_rounded():
    # G1: the check compared float64(2**53 + 1) == 2**53 with 2**53, so the integer
    # 2**53 + 1 passed and came back as the row of 2**53
    for pos in (np.array([2**53 + 1]), [-(2**53) - 1], np.array([2**63], dtype=np.uint64)):
        with pytest.raises(ValueError, match=r"pos holds integers beyond 2\*\*53"):
            enc.encode(pos, 2)
    edge = enc.encode([2**53, -(2**53)], 2)            # the edge itself is exact
    assert edge[0, 0] == np.sin(2.0**53) and edge[1, 0] == np.sin(-(2.0**53))
    assert "integers within 2**53 in magnitude, or real numbers" in flat(enc.encode)


def test_an_offset_that_rounds_whole_positions_is_refused():
    # G2 (in p8h's fix): since floats past 2**53 are evaluated directly, positions + offset
    # rounded there: encode_variant(2, 4, offset=2**53) gave two equal rows, where
    # build_table (int64 positions) gives two different ones
    with pytest.raises(ValueError, match="offset"):
        var.encode_variant(2, 4, offset=2**53)
    with pytest.raises(ValueError, match="offset"):
        var.encode_variant([-5.0], 4, offset=-(2**53))
    # build_table (int64 positions) keeps 2**53 - 1 and 2**53 apart and equals encode_variant;
    # one row further, posenc.fast refuses 2**53 + 1 as encode_variant does (p10h)
    t = tab.build_table(2, 4, offset=2**53 - 1, dtype=torch.float64).numpy()
    assert not np.array_equal(t[0], t[1])
    assert np.array_equal(t, var.encode_variant(2, 4, offset=2**53 - 1))
    with pytest.raises(ValueError, match="within 2"):
        tab.build_table(2, 4, offset=2**53, dtype=torch.float64)
    # exact sums and fractional ones still work
    assert np.array_equal(var.encode_variant(1, 4, offset=2**53), enc.encode([2.0**53], 4))
    assert var.encode_variant([2.0**60], 4, offset=2**53).shape == (1, 4)
    assert var.encode_variant([0.25, 3.0], 4, offset=0.5).shape == (2, 4)


def test_nearest_pairs_refuses_labels_that_break_the_order():
    # G3: a nan label gave (2.0, nan, 0.1) and (1.0, nan, 1.0); repeated labels gave a pair
    # (p, p); both break pos_a < pos_b
    with pytest.raises(ValueError, match="positions must be finite"):
        dist.nearest_pairs([0.0, 1.0, 0.1], count=3, positions=[np.nan, 1.0, 2.0])
    with pytest.raises(ValueError, match="positions must be distinct"):
        dist.nearest_pairs([0.0, 1.0, 0.1], count=3, positions=[5, 5, 3])
    got = dist.nearest_pairs([0.0, 1.0, 0.1], count=3, positions=[0.5, 1.5, -2.0])
    assert all(a < b for a, b, _ in got)


def test_t2t_ends_at_1_over_base_from_width_4():
    # G4: "ending at 1 / base": the max guard the sentence names gives [1.] at d_model 2
    assert var.frequencies(2, spacing="t2t").tolist() == [1.0]
    for d in (4, 6, 512):
        assert var.frequencies(d, spacing="t2t")[-1] == pytest.approx(1e-4, rel=1e-14)
    assert "from ``d_model = 4``" in flat(var.frequencies)


def test_a_base_that_overflows_the_dtype_is_named():
    # G5: base 1e5 in float16: "base must be a finite positive number, got inf" from
    # rounding.power, and with kernels="numpy" the frequency 0.0 (a cast warning only)
    for kernels in ("correctly rounded", "numpy"):
        with pytest.raises(ValueError, match="base 100000 overflows float16"):
            forms.frequencies_as_written(4, 1e5, dtype="float16", kernels=kernels)
    assert forms.frequencies_as_written(4, 65519.0, dtype="float16")[1] > 0   # rounds to 65504
    exp_form = forms.frequencies_as_written(4, 1e5, form="exp", dtype="float16")
    assert float(exp_form[1]) == pytest.approx(1e5 ** -0.5, rel=2 ** -9)   # a few float16 units
    with pytest.raises(ValueError, match="dtype must be"):
        forms.frequencies_as_written(4, 100.0, dtype=torch.float32)


def test_nearest_pairs_returns_every_pair_when_count_is_larger():
    # G6: "How many pairs to return": three rows have three pairs, whatever count asks
    assert len(dist.nearest_pairs([0.0, 1.0, 0.1], count=10)) == 3
    assert "all ``n (n - 1) / 2`` if fewer" in flat(dist.nearest_pairs)
