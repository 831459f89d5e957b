"""The claims page's first half, as review-2026-12 p8i pass 8 left it.

Pass 8 flipped words, numbers and formulas of the first half in a scratch copy and ran the page
with every errata test. Numbers and claim words were caught (the page harness binds them); the
formulas written in TeX and a few words were not: every one below could be changed into a false
statement with every check passing. Each test here reads the formula or word from the page,
evaluates the formula as written (a small TeX-to-Python reader, no `posenc`), and compares it
with the quantity recomputed from the source's own code in NumPy.
"""

from __future__ import annotations

import inspect
import math
import re

import numpy as np

from tests.site.test_errata_review_p5i import entry_prose as prose, found_in as found


def tex(formula: str, **names: float) -> float:
    """Evaluate a TeX formula of the page: ^ is a power, {..} groups, juxtaposition multiplies."""
    py = re.sub(r"(\d+)\s*\\pi", r"{\1 \\pi}", formula)     # 2\pi is one factor: x / 2\pi
    py = py.replace(r"d_{\text{model}}", "d").replace(r"\text{base}", "base")
    py = py.replace(r"\text{max}", "max_").replace(r"\text{min}", "min_")
    for word, name in ((r"\ln", "log"), (r"\pi", "pi"), (r"\cdot", "*"), (r"\lambda_i", "lam"),
                       (r"\gamma", "gamma")):
        py = py.replace(word, f" {name} ")
    py = py.replace("{", "(").replace("}", ")").replace("^", "**")
    py = re.sub(r"(\d|\))\s*(\(|[A-Za-z])", r"\1*\2", py)        # 2(d-2) -> 2*(d-2), 2i -> 2*i
    py = re.sub(r"\b(pi|lam|base|gamma|d|i|s)\s+(\(|[A-Za-z])", r"\1*\2", py)
    py = re.sub(r"\blog\*\(", "log(", py)
    scope = {"pi": math.pi, "log": math.log, **names}
    return eval(py, {"__builtins__": {}}, scope)                  # noqa: S307 (page text, tests only)


def paper_omega(d: int, base: float = 10000.0) -> np.ndarray:
    return base ** (-np.arange(0, d, 2) / d)


def test_each_dimension_counts():
    (half,) = found(r"a \\\(d_\{\\text\{model\}\}\\\)-wide table has \\\((.+?)\\\) frequencies",
                    "each-dimension")
    (count,) = found(r"The (\w+) columns of a pair differ only in offset", "each-dimension")
    d = 20
    omega = np.repeat(paper_omega(d), 2)                     # the frequency of each column
    assert tex(half, d=d) == len(set(omega.tolist())) == 10
    assert {"two": 2}.get(count) == max(np.sum(omega == w) for w in omega)


def test_i_counts_pairs_from_zero():
    last, = found(r"counts \*pairs\*, from 0 to \\\((.+?)\\\)", "i-is-the-dimension")
    dims = found(r"the dimensions are \\\((.+?)\\\) and \\\((.+?)\\\)", "i-is-the-dimension")
    d = 512
    assert tex(last, d=d) == d // 2 - 1 == len(paper_omega(d)) - 1
    omega = np.repeat(paper_omega(d), 2)
    for i in (0, 1, 7, 255):
        columns = [int(tex(x, i=i)) for x in dims]
        assert np.flatnonzero(omega == paper_omega(d)[i]).tolist() == columns


def test_div_term_reciprocal_and_divisor():
    div_term, divisor = found(r"`div_term` is the \*reciprocal\*, \\\((.+?)\\\), which is .+?"
                              r"divides by \\\((.+?)\\\), as the paper does", "div-term-name")
    d = 512
    line = np.exp(np.arange(0, d, 2) * -(math.log(10000.0) / d))   # the tutorial's line
    for i in (0, 1, 100, 255):
        assert math.isclose(tex(div_term.replace("10000", "base"), base=1e4, i=i, d=d), line[i])
        assert math.isclose(tex(divisor.replace("10000", "base"), base=1e4, i=i, d=d), 1 / line[i])


def test_samlynnevans_slowest_sine_wavelength():
    (formula,) = found(r"the slowest sine's wavelength, \\\((.+?)\\\),", "cos-next-pair")
    d, base = 512, 10000.0
    i = d - 2                                           # the loop's last i: columns d-2, d-1
    code = 2 * math.pi * base ** ((2 * i) / d)          # math.sin(pos / (10000 ** ((2 * i)/d)))
    assert math.isclose(tex(formula, base=base, d=d), code)


def test_maxjcohen_cosine_factor():
    word, formula = found(r"each cosine is (slower|faster) than its sine by the factor "
                          r"\\\((.+?)\\\)", "cos-odd-exponent")
    d, base = 64, 1000.0
    sine = base ** (np.arange(0, d, 2) / d)             # divisors of the position
    cosine = base ** (np.arange(1, d, 2) / d)
    assert np.allclose(cosine / sine, tex(formula, base=base, d=d))
    assert word == ("slower" if np.all(cosine > sine) else "faster")


def test_log_space_epsilons():
    (n,) = found(r"agree to within (\d+) float64 epsilons", "log-space")
    exp_form = np.exp(np.arange(0, 512, 2) * -(math.log(10000.0) / 512))
    power_form = 10000.0 ** (-np.arange(0, 512, 2) / 512)
    apart = float(np.max(np.abs(exp_form / power_form - 1)))
    assert apart < int(n) * np.finfo(np.float64).eps


def test_paper_spacing_in_same_channels():
    t2t, paper = found(r"by \\\((.+?)\\\) instead of \\\((.+?)\\\)\.", "same-channels")
    d, base = 512, 10000.0
    step = -np.diff(np.log(paper_omega(d, base)))        # the paper's spacing in log frequency
    assert np.allclose(step, tex(paper, base=base, d=d))
    num = d // 2                                         # get_timing_signal_1d, min 1, max base
    code = math.log(base / 1.0) / max(num - 1, 1)
    assert math.isclose(tex(t2t, max_=base, min_=1.0, d=d), code)


def test_marian_quoted_line_is_in_the_installed_source():
    (quoted,) = found(r"computed per column as `(.+?)`", "marian-xlm")
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding
    assert quoted in inspect.getsource(MarianSinusoidalPositionalEmbedding.create_weight)


def test_wavelength_divisor_is_lambda_over_two_pi():
    (formula,) = found(r"is its reciprocal, \\\((.+?)\\\),", "wavelength-divisor")
    d, base = 512, 10000.0
    omega = paper_omega(d, base)
    lam = 2 * math.pi / omega
    for i in (0, 1, 100, 255):
        assert math.isclose(tex(formula, lam=lam[i]), 1 / omega[i])


def test_slowest_wavelength_formulas():
    (longest,) = found(r"so its wavelength is \\\((.+?)\\\):", "longest-wavelength")
    (tutorial,) = found(r"slowest wavelength, \\\((.+?)\\\) positions", "max-input-length")
    for d in (64, 128, 512):
        slowest = 2 * math.pi / paper_omega(d)[-1]
        assert math.isclose(tex(longest, d=d), slowest)
        assert math.isclose(tex(tutorial, d=d), slowest)


def test_ntk_exponent_and_slowest_frequency():
    raise_by, slowest = found(r"raising the base by \\\((.+?)\\\) leaves .+? divides "
                              r"\\\(\\omega_\{d/2-1\} = (.+?)\\\) by", "ntk-base")
    d, s, base = 128, 8.0, 10000.0
    new_base = base * tex(raise_by, s=s, d=d)
    assert math.isclose(tex(slowest, base=base, d=d), paper_omega(d, base)[-1])
    assert math.isclose(paper_omega(d, base)[-1] / paper_omega(d, new_base)[-1], s)
    assert paper_omega(d, new_base)[0] == 1.0


def test_xpos_zeta_is_the_buffer():
    (zeta,) = found(r"It is \\\(\\zeta_i = (.+?)\\\) with", "xpos-scale")
    d, gamma = 64, 0.4
    buffer = (np.arange(0, d, 2) + 0.4 * d) / (1.4 * d)   # torchscale's scale buffer
    assert np.allclose([tex(zeta, i=i, d=d, gamma=gamma) for i in range(d // 2)], buffer)


def test_rotate_half_scores_depend_on_the_offset_alone():
    (what,) = found(r"scores depend on (the offset alone|the positions)", "rotate-half-bug")
    rng = np.random.default_rng(3)
    q, k = rng.normal(size=(2, 16))
    omega = paper_omega(16)

    def rotate(x, m, half):
        if half:                                          # (x_i, x_{i+d/2})
            a, b = x[:8], x[8:]
        else:                                             # (x_{2i}, x_{2i+1})
            a, b = x[0::2], x[1::2]
        c, s = np.cos(m * omega), np.sin(m * omega)
        return np.concatenate([a * c - b * s, a * s + b * c])

    for half in (False, True):
        scores = [rotate(q, m, half) @ rotate(k, m - 5, half) for m in (5, 9, 40, 777)]
        assert np.allclose(scores, scores[0]) == (what == "the offset alone")
