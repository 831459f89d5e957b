"""The rotation (tiled) builder against the independent mpmath reference, on every path it takes:
consecutive runs across block boundaries, unsorted/gapped/negative/repeated positions, large
positions, both layouts, both dtypes, several block sizes; and its bad input."""

import math

import mpmath
import numpy as np
import pytest

import posenc
from posenc.fast import PARALLEL_MIN, phasors, rotated_table, rotors
from tests.package.reference import exact_entry

HALF_ULP_AT_ONE = 2.0 ** -25        # 2.98e-8
U64 = 2.0 ** -52                    # float64 unit in the last place of 1


def _exact(positions, columns, d_model, layout="interleaved"):
    return np.array([[float(exact_entry(int(p), int(c), d_model, layout=layout)) for c in columns]
                     for p in positions])


def _half_ulp32(exact):
    return 0.5 * np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)


def _assert_float32_correctly_rounded(table, positions, columns, d_model, layout="interleaved"):
    exact = _exact(positions, columns, d_model, layout)
    got = table[:, columns].astype(np.float64)
    err = np.abs(got - exact)
    # half an ulp of the exact value, plus float64's own error in the angle (2e-10 at 1e6)
    assert np.all(err <= _half_ulp32(exact) + 1e-9), err.max()
    assert err.max() <= HALF_ULP_AT_ONE


COLUMNS = np.r_[0:6, 250:256, 506:512]


def test_consecutive_run_across_block_boundaries_near_a_million():
    positions = np.arange(999_930, 1_000_001)            # starts 999930, 999994: two boundaries
    table = rotated_table(positions, posenc.frequencies(512), dtype="float32", block=64)
    rows = [0, 1, 62, 63, 64, 65, 69, 70]
    _assert_float32_correctly_rounded(table[rows], positions[rows], COLUMNS, 512)


def test_encode_uses_the_rotation_builder_for_integer_positions():
    omega = posenc.frequencies(64)
    for pos in (200, np.arange(200), list(range(200)), np.arange(200.0)):
        assert np.array_equal(posenc.encode(pos, 64), rotated_table(np.arange(200), omega))
    real = posenc.encode([0.5, 1.5], 64)                 # real positions: direct evaluation
    assert real[0, 0] == pytest.approx(math.sin(0.5), abs=1e-15)


@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
def test_unsorted_gapped_negative_and_repeated_positions(layout):
    positions = np.array([1_000_000, -5, 63, 64, 65, -64, -65, 0, 127, 128, 999_999, 5, 5,
                          -1_000_000, 300_017, 64])
    table = posenc.encode(positions, 512, layout=layout, dtype="float32")
    _assert_float32_correctly_rounded(table, positions, COLUMNS, 512, layout)
    assert np.array_equal(table[[11]], table[[12]])     # a repeated position, the same row


def test_float32_within_half_ulp_at_random_positions_and_block_sizes():
    rng = np.random.default_rng(13)
    positions = rng.integers(-1_000_000, 1_000_001, 12)
    omega = posenc.frequencies(256)
    columns = rng.integers(0, 256, 24)
    for block in (1, 7, 64, 1000):
        table = rotated_table(positions, omega, dtype="float32", block=block)
        _assert_float32_correctly_rounded(table, positions, columns, 256)


def test_float32_is_the_float64_rotation_cast_once():
    for pos in (np.arange(5000), np.array([7, -3, 100_000, 64, 63])):
        assert np.array_equal(posenc.encode(pos, 128, dtype="float32"),
                              posenc.encode(pos, 128).astype(np.float32))


def test_float64_as_accurate_as_direct_evaluation():
    """Both errors are dominated by rounding the angle to float64 (about |angle| * 1.1e-16);
    the combine itself adds at most one float64 unit of 1 (2.2e-16) on top of that."""
    d_model = 64
    omega = posenc.frequencies(d_model)
    for first in (0, 10_000, 999_800):
        positions = np.arange(first, first + 150)[::11]
        exact = _exact(positions, range(d_model), d_model)
        rot = rotated_table(positions, omega)
        theta = np.multiply.outer(positions.astype(np.float64), omega)
        direct = np.empty_like(rot)
        direct[:, 0::2], direct[:, 1::2] = np.sin(theta), np.cos(theta)
        err_rot, err_direct = np.abs(rot - exact), np.abs(direct - exact)
        # entrywise, within the float64 angle error bound (2 roundings of pos*omega)
        assert np.all(err_rot <= 4 * U64 * np.maximum(positions, 1)[:, None]), first
        assert err_rot.max() <= err_direct.max() * 1.5 + 4 * U64


def test_combine_adds_a_few_float64_units():
    """Against sin/cos of the sum of the four float64 angle pieces actually used: the position
    is 512 c + 64 e + 8 a + b, and each piece times omega is rounded to float64 once. Four
    rounded sin/cos pairs and three complex products (each within sqrt(5) float64 half-units,
    Brent, Percival and Zimmermann 2007) bound the combine's own error by about 4 units of 1."""
    omega = posenc.frequencies(32)
    positions = np.arange(999_000, 999_200)
    table = rotated_table(positions, omega, block=64)
    worst = 0.0
    for j in range(0, 200, 9):
        pos = 999_000 + j                      # starts are multiples of the block
        c, e, a, b = pos // 512, pos // 64 % 8, pos % 64 // 8, pos % 8
        for i in range(16):
            angle = sum(mpmath.mpf(float(piece) * omega[i])
                        for piece in (512 * c, 64 * e, 8 * a, b))
            worst = max(worst, abs(table[j, 2 * i] - float(mpmath.sin(angle))),
                        abs(table[j, 2 * i + 1] - float(mpmath.cos(angle))))
    assert 0 < worst <= 4 * U64


def test_large_positions_keep_float64_angle_accuracy():
    positions = np.array([10**9, -(10**9) - 1, 2**40, 2**40 + 63, 2**40 + 64])
    d_model = 16
    table = posenc.encode(positions, d_model)
    exact = _exact(positions, range(d_model), d_model)
    bound = 4 * U64 * np.abs(positions).astype(np.float64)[:, None]
    assert np.all(np.abs(table - exact) <= bound)


def test_empty_single_and_tiny_tables():
    omega = posenc.frequencies(4)
    assert rotated_table([], omega).shape == (0, 4)
    assert rotated_table([3], omega)[0, 0] == pytest.approx(math.sin(3), abs=1e-15)
    assert np.allclose(rotated_table(np.arange(3), omega, block=100), posenc.encode(3, 4))


def test_phasors_pair_sin_with_cos():
    z = phasors([0.0, 1.0])
    assert z[1].real == pytest.approx(math.sin(1.0)) and z[1].imag == pytest.approx(math.cos(1.0))


@pytest.mark.parametrize("kwargs, exc, words", [
    ({"block": 0}, ValueError, "block"),
    ({"block": -3}, ValueError, "block"),
    ({"block": 2.0}, TypeError, "block"),
    ({"block": True}, TypeError, "block"),
    ({"block": None}, TypeError, "block"),
    ({"positions": [0.5, 1.0]}, ValueError, "positions.*whole"),
    ({"positions": [np.nan]}, ValueError, "positions"),
    ({"positions": np.zeros((2, 2), int)}, ValueError, "positions.*1-D"),
    ({"positions": ["a"]}, TypeError, "positions"),
    ({"positions": [2**60]}, ValueError, "positions.*2\\*\\*53"),
    ({"omega": []}, ValueError, "omega"),
    ({"omega": np.ones((2, 2))}, ValueError, "omega"),
    ({"omega": [1.0, np.inf]}, ValueError, "omega.*finite"),
    ({"omega": ["x"]}, TypeError, "omega"),
    ({"layout": "concat"}, ValueError, "layout"),
    ({"workers": 0}, ValueError, "workers"),
    ({"workers": 1.5}, TypeError, "workers"),
    ({"workers": True}, TypeError, "workers"),
    ({"dtype": "float16"}, ValueError, "dtype"),
])
def test_bad_input(kwargs, exc, words):
    args = {"positions": [0, 1], "omega": [1.0, 0.1]} | kwargs
    positions, omega = args.pop("positions"), args.pop("omega")
    with pytest.raises(exc, match=words):
        rotated_table(positions, omega, **args)


def test_a_row_depends_only_on_its_position():
    """encode(n)[p] and encode([p])[0] are the same bits, whatever else was asked for."""
    import posenc

    full = posenc.encode(300, 64)
    for p in (0, 7, 63, 64, 65, 200, 299):
        assert np.array_equal(posenc.encode([p], 64)[0], full[p])
    assert np.array_equal(posenc.encode(np.arange(7, 200), 64), full[7:200])
    assert np.array_equal(posenc.encode([299, 3, 150], 64), full[[299, 3, 150]])


@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
def test_threads_do_not_change_the_bits(layout):
    """Tiles are shared between threads for large tables; every split gives the same table,
    including partial tiles and a partial last block (n = 3000 is not a multiple of 64)."""
    omega = posenc.frequencies(256)
    for positions in (np.arange(3000), np.arange(6400, 9400), np.arange(3000)[::-1] * 7):
        tables = [rotated_table(positions, omega, layout=layout, dtype="float32", workers=w)
                  for w in (1, 2, 3, 64)]
        assert all(np.array_equal(tables[0], t) for t in tables[1:])


def test_large_tables_default_to_two_threads_and_match_one(monkeypatch):
    import threading

    started = []
    real_start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start",
                        lambda self: (started.append(self), real_start(self))[1])
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    n = PARALLEL_MIN // 128 + 64                        # just over the threshold for d = 256
    table = posenc.encode(n, 256, dtype="float32")
    assert len(started) == 1
    assert np.array_equal(table, rotated_table(np.arange(n), posenc.frequencies(256),
                                               dtype="float32", workers=1))
    started.clear()
    posenc.encode(n - 128, 256, dtype="float32")       # under it: one thread
    assert started == []


def test_rotors_add_angles():
    a, b = np.linspace(-3, 3, 7), np.linspace(0, 50, 7)
    z = phasors(a) * rotors(b)
    assert np.allclose(z.real, np.sin(a + b), atol=1e-14)
    assert np.allclose(z.imag, np.cos(a + b), atol=1e-14)
    assert np.array_equal(rotors(b), -1j * phasors(b))


@pytest.mark.parametrize("positions", [np.arange(8192), np.arange(2048), np.arange(3),
                                       np.arange(64, 200), [5], [1_000_000, -3, 64, 64],
                                       np.arange(0, 10**6, 997)])
def test_exact_rows_counts_the_sines_the_builder_evaluates(positions, monkeypatch):
    import posenc.fast as fast

    evaluated = []                       # every exact sin/cos goes through phasors (rotors too)
    real = fast.phasors
    monkeypatch.setattr(fast, "phasors", lambda theta: (
        evaluated.append(np.shape(theta)[0]), real(theta))[1])
    omega = posenc.frequencies(16)
    table = fast.rotated_table(positions, omega)
    assert sum(evaluated) == fast.exact_rows(positions)
    theta = np.multiply.outer(np.asarray(positions, dtype=float), omega)    # direct, to compare
    assert np.allclose(table[:, 0::2], np.sin(theta), atol=1e-9, rtol=0)
    assert np.allclose(table[:, 1::2], np.cos(theta), atol=1e-9, rtol=0)


@pytest.mark.parametrize("args, exc, words", [
    (([0.5],), ValueError, "positions.*whole"),
    ((np.zeros((2, 2), int),), ValueError, "positions.*1-D"),
    ((["a"],), TypeError, "positions"),
    (([1, 2], 0), ValueError, "block"),
    (([1, 2], 2.0), TypeError, "block"),
])
def test_exact_rows_bad_input(args, exc, words):
    from posenc.fast import exact_rows

    with pytest.raises(exc, match=words):
        exact_rows(*args)
