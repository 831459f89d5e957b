# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Notebook playground
#
# A playground for the `posenc` package: every table and figure below is computed by it, and
# this notebook is executed every time the site is built and every time the tests run.
# Download it with the button at the top of the page, install the package from the wheel this
# site serves (see "Run it yourself") and change the numbers in the next cell.
# The derivations live in the chapters; this page is for experiments.

# %%
import numpy as np
from IPython.display import HTML, display

import posenc
from posenc.plots import figure_html
from posenc.plots.encoding import heatmap
from posenc.variants import encode_variant

np.set_printoptions(precision=4, suppress=True, linewidth=72)

N_POSITIONS = 60     # rows: positions 0 .. N_POSITIONS - 1
D_MODEL = 16         # columns: a positive even integer
BASE = 10000.0       # the paper's base; try 100 or 1e6

# %% [markdown]
# ## The table
#
# `posenc.encode` returns one row per position. In the paper's interleaved layout column `2i`
# holds the sine and column `2i + 1` the cosine of `pos * omega_i`.

# %%
pe = posenc.encode(N_POSITIONS, D_MODEL, base=BASE)
print("shape:", pe.shape)
print("positions 0-3, dimensions 0-7:")
print(pe[:4, :8])

# %% [markdown]
# The frequencies `omega_i = base ** (-2 i / d_model)` fall geometrically from 1, and the
# wavelengths `2 pi / omega_i` grow from 2 pi positions upwards:

# %%
omega = posenc.frequencies(D_MODEL, BASE)
wavelength = posenc.wavelengths(D_MODEL, BASE)
for i in range(D_MODEL // 2):
    print(f"i = {i}: omega = {omega[i]:.3e}, "
          f"wavelength = {wavelength[i]:.1f} positions")

# %% [markdown]
# ## The table as a picture
#
# `posenc.plots.encoding.heatmap` draws the table; `figure_html` turns the figure into SVG that
# follows this page's light or dark text colour.

# %%
fig = heatmap(pe, title=f"d_model = {D_MODEL}, base = {BASE:g}")
alt = ("Heatmap of the encoding table: the left columns change "
       "quickly down the positions, the right columns slowly.")
display(HTML(figure_html(fig, alt=alt)))

# %% [markdown]
# ## Two layouts, the same numbers
#
# Many codebases store all the sines first, then all the cosines. With the paper's
# frequencies the two tables hold the same numbers in a different column order, so every dot
# product between positions is the same. (tensor2tensor and fairseq also change the
# frequencies, so their tables are not a reordering of this one: see chapter 12.)

# %%
concat = posenc.encode(N_POSITIONS, D_MODEL, base=BASE,
                       layout="concatenated")
order = posenc.layout_permutation(D_MODEL)
print("concatenated column j comes from interleaved column")
print(order)
assert np.array_equal(pe[:, order], concat)
same = np.allclose(pe @ pe.T, concat @ concat.T)
assert same
print("same Gram matrix (all dot products):", same)
t2t = encode_variant(N_POSITIONS, D_MODEL, base=BASE, spacing="t2t",
                     layout="concatenated")
assert not np.allclose(t2t, concat)   # other frequencies: not a reordering

# %% [markdown]
# ## Change the base and the width
#
# The base sets the slowest clock; `d_model` sets how many clocks there are. The longest
# wavelength is `2 pi * base ** ((d_model - 2) / d_model)`, a little less than `2 pi * base`:

# %%
print(f"{'base':>8} {'d_model':>8} {'longest':>12} {'2 pi base':>12}")
for base in (100.0, 10000.0, 1e6):
    for d_model in (8, 64, 512):
        longest = posenc.wavelengths(d_model, base)[-1]
        exponent = (d_model - 2) / d_model
        assert np.isclose(longest, 2 * np.pi * base ** exponent)
        assert longest < 2 * np.pi * base
        print(f"{base:>8g} {d_model:>8} {longest:>12.1f} "
              f"{2 * np.pi * base:>12.1f}")

# %%
fig = heatmap(posenc.encode(N_POSITIONS, D_MODEL, base=100.0),
              title=f"d_model = {D_MODEL}, base = 100")
alt = ("With base 100 the right columns change much faster down the "
       "positions than with base 10000: the slowest clock is faster.")
display(HTML(figure_html(fig, alt=alt)))

# %% [markdown]
# ## The dot product depends on the offset only
#
# `PE(p) . PE(p + k)` is the same for every reference position `p`; it equals the sum of
# `cos(omega_i k)`, and it is the same for `k` and `-k`.

# %%
k = 5
sum_cos = np.cos(posenc.frequencies(D_MODEL, BASE) * k).sum()
for p in (0, 10, 40):
    both = posenc.encode([p, p + k, p - k], D_MODEL, base=BASE)
    ahead, behind = both[0] @ both[1], both[0] @ both[2]
    assert np.isclose(ahead, sum_cos) and np.isclose(behind, sum_cos)
    print(f"p = {p:2d}: PE(p).PE(p+k) = {ahead:.6f}, "
          f"PE(p).PE(p-k) = {behind:.6f}")
print(f"sum_i cos(omega_i k)       = {sum_cos:.6f}")

# %% [markdown]
# ## Train a tiny Transformer (a few seconds; longer on a busy machine)
#
# The chapter "What does a trained model do with the encoding?" trains small models here to
# test claims about what training does with positions. This is one of its runs, shortened:
# a 2-layer model learns "output the symbol 3 positions back" on sequences of 16 symbols,
# then is tested on 32. Change `SCHEME` to `"learned"`, `"rope"`, `"alibi"` or `"none"` and
# run it again.

# %%
import sys

from posenc.lab.run import Config, run

SCHEME = "sinusoid"
config = Config(scheme=SCHEME, train_lengths=(16,), test_lengths=(16, 32), steps=200,
                max_len=32, eval_size=128)
done = 0


def progress(step):
    global done
    done += step
    if done % 20 == 0:
        bar = "#" * (done * 30 // config.steps)
        sys.stdout.write(f"\r[{bar:<30}] step {done}/{config.steps}")
        sys.stdout.flush()


metrics = run(config, progress)
print()
for length, result in metrics["test"].items():
    seen = result["per_position"][config.k:16]
    unseen = result["per_position"][16:]
    print(f"length {length}: accuracy {result['accuracy']:.2f}")
print(f"positions 3-15 (trained): {sum(seen) / len(seen):.2f}; "
      f"positions 16-31 (never seen): {sum(unseen) / len(unseen):.2f}")
assert metrics["curve"][-1][1] < metrics["curve"][0][1]      # the loss went down
