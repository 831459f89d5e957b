"""Edges of the docstrings of posenc's distances, _checks, fast and scaling modules, checked
against references built without posenc (review-2026-12 p11h, pass 5)."""
import numpy as np
import pytest

import posenc.distances as dist
import posenc.encoding as enc
import posenc.fast as fast
import posenc.scaling as scal


def exact_distances(t):
    t = np.asarray(t, dtype=np.float64)
    t = t[:, None] if t.ndim == 1 else t
    return np.sqrt(((t[:, None, :] - t[None, :, :]) ** 2).sum(-1))


def test_pairwise_distances_close_rows_not_a_false_collision():
    # p10h's centring put 0 and 1e-9 far from the midrange 0.5: |x|^2 + |y|^2 - 2 x.y cancelled to 0
    assert dist.pairwise_distances([[0.0], [1e-9], [1.0]])[0, 1] == 1e-9


@pytest.mark.parametrize("table", [
    np.sin(np.arange(200) * 0.7),                                # one column: 6.4e-9 before
    enc.encode(512, 2),
    np.random.default_rng(1).normal(size=(100, 4)) + 1e8,        # a shared offset
])
def test_pairwise_distances_match_differences(table):
    e = exact_distances(table)
    m = e > 0
    got = dist.pairwise_distances(table)
    assert np.max(np.abs(got[m] - e[m]) / e[m]) < 1e-11
    assert np.all(got[~m] == 0)


@pytest.mark.parametrize("call", [
    lambda: enc.encode([2**53 + 1, 0.5], 2),                     # NumPy rounds it to 2**53
    lambda: enc.encode((-(2**53) - 1, 0.5), 2),
    lambda: fast.rotated_table([2**53 + 1, 1.0], np.ones(1)),
    lambda: fast.exact_rows([2**53 + 1, 1.0]),
    lambda: dist.nearest_pairs([0.0, 1.0, 2.0], positions=[2**53 + 1, 2**53, 0.5]),
    lambda: dist.nearest_pairs([0.0, 1.0, 2.0], positions=[2**64, 1, 2]),
])
def test_listed_integers_past_2_53_refused_before_numpy_rounds_them(call):
    with pytest.raises(ValueError, match=r"pos(itions)? holds integers beyond 2\*\*53"):
        call()


def test_listed_integers_within_2_53_still_taken():
    assert np.array_equal(enc.encode([2**53, 0.5], 2)[0], np.array([np.sin(2.0**53), np.cos(2.0**53)]))
    assert fast.exact_rows([2**53, 1.0]) >= 0


@pytest.mark.parametrize("call, name", [
    (lambda: scal.yarn_ramp(8, 10**400), "original_length"),
    (lambda: scal.yarn_frequencies(8, 4.0, 10**400), "original_length"),
    (lambda: scal.correction_pair(1.0, 8, 10**400), "original_length"),
    (lambda: scal.llama3_frequencies(8, 8.0, 10**400), "original_length"),
    (lambda: scal.dynamic_ntk_base(8, 4.0, 4096, 10**400), "seq_len"),
])
def test_lengths_past_float64_named(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize("dtype", [">f8", ">f4"])
def test_non_native_dtype_refused_not_garbage(dtype):
    # '>f8' has name float64: it passed check_dtype, and encode(3, 4) came back as -1.3e222 etc.
    with pytest.raises(ValueError, match="dtype must be in the machine's byte order"):
        enc.encode(3, 4, dtype=dtype)


@pytest.mark.parametrize("offset", [2**53 + 1, np.int64(2**53 + 1), -(2**53) - 1, 2**53 + 3])
def test_encode_variant_whole_offset_float64_rounds_refused(offset):
    # float(offset) rounded before the two-sum check: [0] + (2**53 + 1) gave the row of 2**53
    import posenc.variants as var
    with pytest.raises(ValueError, match="offset"):
        var.encode_variant([0], 2, offset=offset)
    assert np.array_equal(var.encode_variant([0], 2, offset=2**60), enc.encode([2.0**60], 2))


def test_layouts_gram_same_up_to_rounding_not_bitwise():
    a = enc.encode(256, 64)
    c = enc.encode(256, 64, layout="concatenated")
    ga, gc = a @ a.T, c @ c.T
    assert np.abs(ga - gc).max() < 1e-13
    assert "is the same up to rounding" in " ".join(__import__("posenc.layouts").layouts.__doc__.split())


def test_float32_exp_differs_with_the_cpu_features():
    # omega_forms: kernels="numpy" float32 exp depends on the CPU path NumPy dispatches to
    import json, os, subprocess, sys
    from numpy._core._multiarray_umath import __cpu_features__ as feats
    if not feats.get("X86_V3"):
        pytest.skip("needs an x86-64-v3 CPU to compare against its baseline path")
    code = ("import numpy as np, json; x = np.linspace(-20, 0, 20001, dtype=np.float32); "
            "print(json.dumps(np.exp(x).view(np.uint32).tolist()))")
    runs = [json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                      env={**os.environ, **extra}).stdout)
            for extra in ({}, {"NPY_DISABLE_CPU_FEATURES": "X86_V3"})]
    assert runs[0] != runs[1]


@pytest.mark.parametrize("call", [
    lambda: enc.encode([True, 2], 4),                            # was the rows of 1 and 2
    lambda: fast.exact_rows([True, 2]),
    lambda: dist.nearest_pairs([0.0, 1.0, 2.0], positions=[True, 2, 3]),
])
def test_bools_in_a_position_list_refused(call):
    with pytest.raises(TypeError, match="not bools"):
        call()


@pytest.mark.parametrize("call", [dist.pairwise_distances, dist.nearest_pairs, dist.min_distance])
def test_table_without_columns_named(call):
    # since p10h's centring: "zero-size array to reduction operation maximum which has no identity"
    with pytest.raises(ValueError, match="table needs at least 1 column"):
        call(np.zeros((3, 0)))
