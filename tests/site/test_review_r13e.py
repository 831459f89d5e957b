"""Review-2026-12 r13e (chapter 10b pass 9, its last part; chapter 11 pass 4).

Sentences whose flipped word left the page and every test passing in a scratch copy, and the
sentences this review rewrote: each phrase must be on the page exactly when a small computation
(or the lab's records and code) says it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
CH10B = ROOT / "docs" / "chapters" / "10b-what-does-a-trained-model-do.md"
CH11 = ROOT / "docs" / "chapters" / "11-a-pytorch-module.md"


def flat(path: Path) -> str:
    return " ".join(path.read_text().split())


def says(path: Path, phrase: str, fact) -> None:
    assert (" ".join(phrase.split()) in flat(path)) == bool(fact), (phrase, fact)


# --------------------------------------------------------------------------- chapter 10b
def test_learned_rows_past_the_training_length_got_no_gradient():
    """Exercise 2: the learned model trains on 24 positions of a 48-row table with AdamW at
    weight_decay 0, so rows 24-47 keep their initial values exactly, while rows 0-23 move."""
    from posenc.lab.experiments import EXPERIMENTS
    from posenc.lab.run import build, train
    config = dataclasses.replace(EXPERIMENTS["past"].configs["learned"], steps=3, log_every=1,
                                 eval_size=4, test_lengths=(24,))
    assert config.train_lengths == (24,) and config.max_len == 48
    before = build(config).pos_table.weight.detach()
    after = train(config)[0].pos_table.weight.detach()
    untouched = torch.equal(after[24:], before[24:]) and not torch.equal(after[:24], before[:24])
    says(CH10B, "the learned rows past the training length got no gradient", untouched)
    # untouched rows are the initial draw, independent of every trained row
    says(CH10B, "random vectors unrelated to any row the model saw", untouched)


def test_the_sinusoid_rows_past_24_are_new_and_the_slowest_pairs_stay_close():
    """Exercise 2: the sinusoid's rows 24-47 (d_model of the past runs) equal none of rows 0-23
    (new), while their slowest pair stays within 0.01 of row 23's; written here in float64
    without posenc. The flip "are not new" passed the page."""
    import math
    from posenc.lab.experiments import EXPERIMENTS
    d = EXPERIMENTS["past"].configs["sinusoid"].d_model
    rows = torch.tensor([[f(p / 10000 ** (2 * i / d)) for i in range(d // 2)
                          for f in (math.sin, math.cos)] for p in range(48)], dtype=torch.float64)
    gap = torch.cdist(rows[24:], rows[:24]).min()
    slowest = (rows[24:, -2:] - rows[23, -2:]).abs().max()
    says(CH10B, "the sinusoid's rows there are new but continue the same waves",
         gap > 0.1 and slowest < 0.01)


def test_the_records_do_not_show_the_rows_are_the_cause():
    """Exercise 2: no scheme or Config field swaps the learned rows past 24 for the sinusoid's
    (tests/package/test_lab_review_p12d.py::test_no_run_varies_the_rows_alone), so the records cannot
    show that the rows cause the difference; the flip "and that the rows are its cause" passed
    the page."""
    from posenc.lab.run import Config
    fields = {f.name for f in dataclasses.fields(Config)}
    no_row_swap = not {f for f in fields if "row" in f or "table" in f or "freeze" in f}
    says(CH10B, "The records show what follows, not that the rows are its cause", no_row_swap)
    says(CH10B, "The records show what follows, and that the rows are its cause",
         not no_row_swap)


def test_the_order_blind_guess_is_the_most_frequent_symbol():
    """Exercise 3: guessing the most frequent earlier symbol at position 10 reaches the exact
    order-blind baseline kback(10) (0.233); the least frequent one scores far below 1/16. The
    flip to "the least frequent" passed the page."""
    from posenc.lab.baseline import kback
    rng = np.random.default_rng(1)
    x = rng.integers(0, 16, size=(40_000, 11))
    counts = np.stack([(x[:, :10] == s).sum(1) for s in range(16)], axis=1)
    right = {name: float((pick(counts, axis=1) == x[:, 7]).mean())
             for name, pick in (("most", np.argmax), ("least", np.argmin))}
    exact = float(kback(10, vocab=16, k=3))
    fact = abs(right["most"] - exact) < 0.01 and right["least"] < 1 / 16 < exact
    says(CH10B, "it can guess the most frequent of the symbols before it", fact)
    says(CH10B, "the ten slots, is then likeliest to be the repeated one", fact)
    # exchangeable slots: the guess scores E[largest count] / 10, the uniform-slot formula of kback
    says(CH10B, "equally likely to sit in any of the ten slots", fact)


def test_ten_symbols_from_sixteen_often_repeat_one():
    """Exercise 3: ten symbols drawn from 16 repeat one with probability 1 - 16!/(6! 16^10)
    = 0.974; the flip to "rarely repeat one" passed the page."""
    import math
    repeat = 1 - math.perm(16, 10) / 16 ** 10
    says(CH10B, "ten earlier symbols drawn from 16 often repeat one", repeat > 0.5)


# --------------------------------------------------------------------------- chapter 11
def _module(*args, **kwargs):
    from posenc.torch_module import SinusoidalPositionalEncoding
    return SinusoidalPositionalEncoding(*args, **kwargs)


def test_half_leaves_the_float32_table_alone():
    """Answer: .half() builds a float16 table rounded once from float64 and leaves the float32
    one as it was (not cast); the flip "so `.half()` casts it" passed the page."""
    m = _module(8, max_len=64)
    t32 = m.table(torch.float32).clone()
    m.half()
    fresh16 = _module(8, max_len=64).table(torch.float16)
    alone = torch.equal(m.table(torch.float32), t32) and torch.equal(m.table(torch.float16),
                                                                     fresh16)
    says(CH11, "and not as a buffer, so `.half()` leaves it alone", alone)


def test_a_square_batch_seq_tensor_is_read_transposed():
    """A seq-first module reads a square positions tensor as (seq, batch): the caller's
    (batch, seq) tensor is read transposed. The flip "as it is" passed the page."""
    sf = _module(8, max_len=100, batch_first=False)
    positions = torch.arange(4) + 10 * torch.arange(4)[:, None]     # [b, s] = s + 10 b
    out = sf(torch.zeros(4, 4, 8), positions)                       # out[s, b]
    table = sf.table()
    transposed = torch.equal(out[0, 1], table[1]) and not torch.equal(out[0, 1], table[10])
    says(CH11, "reads a square `(batch, seq)` tensor transposed", transposed)


def test_a_module_without_batch_first_refuses_a_seq_first_checkpoint():
    """The flip "accepts a seq-first checkpoint" passed the page."""
    import math as _m
    d, n = 8, 50
    pe = torch.zeros(n, 1, d)
    pos = torch.arange(n).unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2) * (-_m.log(10000.0) / d))
    pe[:, 0, 0::2], pe[:, 0, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
    try:
        _module(d, max_len=n).load_state_dict({"pe": pe})
        refused = False
    except RuntimeError as error:
        refused = "batch_first=False" in str(error)
    _module(d, max_len=n, batch_first=False).load_state_dict({"pe": pe})       # loads
    says(CH11, "a module built without `batch_first` refuses a seq-first checkpoint and asks",
         refused)


@pytest.mark.skipif(not torch.__version__.startswith("2.13."),
                    reason="the sentence names PyTorch 2.13")
def test_a_float64_copy_rounds_twice_in_pytorch():
    """Casting float64 to bfloat16 or float16 in PyTorch 2.13 on the CPU goes through float32:
    a value just past a 16-bit midpoint lands on the midpoint, then on the even neighbour
    (1.0) where one rounding gives the upper one. The flip "so it rounds once" passed."""
    over = [1 + 2.0 ** -8 + 2.0 ** -30] * 1000, [1 + 2.0 ** -11 + 2.0 ** -40] * 1000
    twice = (set(torch.tensor(over[0], dtype=torch.float64).bfloat16().tolist()) == {1.0}
             and set(torch.tensor(over[1], dtype=torch.float64).half().tolist()) == {1.0}
             and float(np.float16(over[1][0])) == 1 + 2.0 ** -10)       # one rounding: up
    says(CH11, "(PyTorch 2.13, on the CPU), so it rounds twice as well", twice)


def test_the_step_of_one_float32_unit_stays_short_of_the_next_tie():
    """A 16-bit tie moved one float32 unit either way casts to the neighbour on that side: one
    16-bit step spans 2^13 (float16) or 2^16 (bfloat16) float32 steps, so the moved value stays
    between the tie and that neighbour. The flip "goes past the next tie" passed the page."""
    cases = [(torch.bfloat16, lo, lo + s) for lo, s in ((1.0, 2.0 ** -7), (0.5, 2.0 ** -8),
                                                          (-0.75, 2.0 ** -8))]
    cases += [(torch.float16, lo, lo + s) for lo, s in ((1.0, 2.0 ** -10), (0.5, 2.0 ** -11),
                                                          (2.0 ** -24, 2.0 ** -24))]  # subnormal
    short = True
    for dtype, lo, hi in cases:
        tie = np.float32((lo + hi) / 2)
        down = np.nextafter(tie, np.float32(-np.inf))
        up = np.nextafter(tie, np.float32(np.inf))
        cast = torch.from_numpy(np.array([down, up], dtype=np.float32)).to(dtype).double()
        short &= cast.tolist() == [lo, hi]
    says(CH11, "That step stays short of the next tie", short)


def test_a_cast_keeps_the_tables_it_had():
    """.bfloat16() on a float32-built module adds a bfloat16 table and keeps the float32 one
    (6 bytes an entry). The flip "A cast drops the tables it had" passed the page."""
    m = _module(8, max_len=16)
    t32 = m.table(torch.float32)
    m.bfloat16()
    kept = set(m._tables) == {torch.float32, torch.bfloat16} and m._tables[torch.float32] is t32
    says(CH11, "A cast keeps the tables it had", kept)


def test_other_dtypes_get_no_float64_table():
    """Calls in float32, bfloat16 and float16 build no float64 table; a float64 call does. The
    flip "other dtypes get a float64 table too" passed the page."""
    m = _module(8, max_len=16)
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        m(torch.zeros(1, 3, 8, dtype=dtype))
    none = torch.float64 not in m._tables
    m(torch.zeros(1, 3, 8, dtype=torch.float64))
    says(CH11, "other dtypes get no float64 table", none and torch.float64 in m._tables)


def test_half_casts_a_non_persistent_buffer():
    """A non-persistent buffer is still a buffer: .half() casts it (float32 -> float16), so
    the table is rounded twice. The flip "`.half()` leaves it" passed the page."""
    holder = torch.nn.Module()
    holder.register_buffer("pe", torch.zeros(4, 8), persistent=False)
    cast = holder.half().pe.dtype == torch.float16 and list(holder.state_dict()) == []
    says(CH11, "it is still a buffer: `.half()` casts it", cast)


def test_the_seq_first_pattern_on_batch_first_input_carries_no_order():
    """x + table_sf[:batch] on (batch, seq, d) input gives every token of a sequence the same
    vector. The flip "carry their order" passed the page."""
    table_sf = torch.randn(100, 1, 8)
    y = torch.zeros(4, 10, 8) + table_sf[:4]
    says(CH11, "so the positions carry no order at all", bool((y == y[:, :1]).all()))


def test_a_2d_input_is_refused():
    """The flip "is accepted" passed the page."""
    try:
        _module(8, max_len=16)(torch.zeros(10, 8))
        refused = False
    except ValueError:
        refused = True
    says(CH11, "quietly turns into a 3-D result, is refused", refused)


def test_the_traced_graph_of_a_cast_module_holds_no_numpy():
    """After .bfloat16() the compiled module's graph holds torch operations on a stored table:
    no NumPy call and no posenc operator. The flip "holds NumPy" passed the page."""
    graphs = []

    def keep(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    torch._dynamo.reset()
    m = _module(8, max_len=16).bfloat16()
    torch.compile(m, backend=keep, fullgraph=True)(torch.zeros(1, 3, 8, dtype=torch.bfloat16))
    targets = [n.target for g in graphs for n in g.graph.nodes if n.op == "call_function"]
    names = [f"{getattr(t, '__module__', '')}.{getattr(t, '__name__', t)}" for t in targets]
    clean = graphs != [] and not any("numpy" in s or "posenc" in s for s in names)
    torch._dynamo.reset()
    says(CH11, "the traced graph holds no NumPy", clean)


def test_a_few_compile_cases_run_with_the_tests_on_eager():
    """tests/package/test_torch_compile.py runs 3 of the 36 matrix cases on the eager backend; the
    flip "All cases run with the tests" passed the page."""
    import sys
    sys.path.insert(0, str(ROOT / "tests" / "package"))
    import compile_matrix
    text = (ROOT / "tests" / "package" / "test_torch_compile.py").read_text()
    end = text.index("def test_compile_matrix_cheap_cases")
    cheap = text[text.rindex("@pytest.mark.parametrize", 0, end):end]
    n = cheap.count('("')
    says(CH11, "A few cases run with the tests on the `eager` backend",
         0 < n < len(compile_matrix.CASES) == 36)


def test_an_exported_cast_module_holds_no_posenc_operator():
    """torch.export of a module holding a table in the input's dtype: only ATen operators
    (the range check is aten._assert_async), which is what lets the program load without
    posenc (tests/package/test_torch_compile.py's slow test loads one). The flip "fails to load"
    passed the page."""
    class Call(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.pe = _module(8, max_len=16).bfloat16()

        def forward(self, x, p):
            return self.pe(x, p)

    program = torch.export.export(Call(), (torch.zeros(1, 3, 8, dtype=torch.bfloat16),
                                           torch.tensor([[0, 1, 2]])))
    ops = [str(n.target) for n in program.graph.nodes if n.op == "call_function"]
    aten_only = any("_assert_async" in o for o in ops) and not any("posenc" in o for o in ops)
    says(CH11, "loads and runs where posenc is not installed", aten_only)


def test_a_table_grown_on_the_cpu_fails_beside_an_input_on_another_device():
    """Exercise 2: the grown table is built on the CPU whatever device the module was moved to,
    and adding it to an input on another device raises. No GPU here: the 'meta' device stands
    in for one (PyTorch refuses a CPU operand that is not 0-d beside a CUDA tensor the same way).
    The flip "the addition would still work" passed the page."""
    x = torch.zeros(1, 20, 8, device="meta")
    grown = torch.zeros(20, 8)                                # the CPU table forward builds
    try:
        x + grown
        fails = False
    except RuntimeError:
        fails = True
    says(CH11, "CPU and the addition would fail", fails)


def test_past_max_len_the_module_raises_and_keeps_its_table():
    """The flip "grows the table instead of raising" passed the page."""
    m = _module(8, max_len=16)
    try:
        m(torch.zeros(1, 2, 8), start=15)
        raised = False
    except ValueError:
        raised = True
    kept = m.max_len == 16 and m.table().shape == (16, 8)
    says(CH11, "so the module raises instead of growing the table", raised and kept)


def test_left_padded_position_ids_0_0_0_1_pass():
    """[0, 0, 0, 1] (a two-token prompt left-padded to 4, pads clamped to 0) is taken as
    positions; the flip "is refused" passed the page."""
    out = _module(8, max_len=16)(torch.zeros(1, 4, 8), torch.tensor([[0, 0, 0, 1]]))
    says(CH11, "which the position ids of a left-padded batch can be, passes",
         out.shape == (1, 4, 8))


def test_seq_first_input_runs_unless_its_batch_exceeds_max_len():
    """A (seq, batch, d_model) tensor given to a batch-first module is read as (batch, seq):
    it runs with seq 30 past max_len 10 and is refused only when its batch (read as seq) is
    past max_len. The old text, "when both axes fit", said less than that."""
    m = _module(8, max_len=10)
    runs_long_seq = m(torch.zeros(30, 2, 8)).shape == (30, 2, 8)
    with pytest.raises(ValueError, match="max_len >= 11"):
        m(torch.zeros(2, 11, 8))
    says(CH11, "runs silently unless its batch exceeds `max_len`", runs_long_seq)
    says(CH11, "handed to a batch-first module, even with seq past `max_len`", runs_long_seq)
    says(CH11, "when both axes fit", False)


def test_seq_first_positions_take_seq_batch_instead_and_seq_alone():
    """A seq-first module takes positions of shape (seq, batch) instead of (batch, seq), and
    (seq,) too: "takes only (seq, batch)" was false for (seq,)."""
    sf = _module(8, max_len=100, batch_first=False)
    x = torch.zeros(4, 2, 8)
    seq_alone = sf(x, torch.arange(4)).shape == (4, 2, 8)
    seq_batch = sf(x, torch.arange(4)[:, None].expand(4, 2)).shape == (4, 2, 8)
    with pytest.raises(ValueError):
        sf(x, torch.arange(4)[None].expand(2, 4))
    says(CH11, "A seq-first module takes `(seq, batch)` instead", seq_alone and seq_batch)
    says(CH11, "A seq-first module takes only `(seq, batch)`", not seq_alone)


def test_fewer_than_100_ties_is_said_of_bfloat16():
    """The 512 x 5000 table holds 29 bfloat16 ties but 327 float16 ties (float32 values halfway
    between two 16-bit neighbours, counted here from the bits without posenc's ties())."""
    t32 = _module(512, max_len=5000).table(torch.float32).numpy().reshape(-1)
    bits = t32.view(np.uint32)
    bf16 = int(((bits & 0xFFFF) == 0x8000).sum())
    mag = np.abs(t32.astype(np.float64))
    normal = (mag >= 2.0 ** -14) & ((bits & 0x1FFF) == 0x1000)
    k = mag * 2.0 ** 25
    sub = (mag < 2.0 ** -14) & (mag > 0) & (k == np.floor(k)) & (k % 2 == 1)
    f16 = int(normal.sum() + sub.sum())
    assert bf16 < 100 <= f16, (bf16, f16)
    says(CH11, "fewer than 100 of its 2,560,000 entries are bfloat16 ties", bf16 < 100)
    says(CH11, "fewer than 100 of its 2,560,000 entries are ties", f16 < 100)
    # the cast of the float32 table is wrong on some ties, not all: against the float64 table
    # rounded once (round to odd in float32, then the cast)
    m = _module(512, max_len=5000)
    t64 = m.table(torch.float64).numpy()
    f = t64.astype(np.float32)
    odd = f.view(np.uint32) - (np.abs(f) > np.abs(t64)).astype(np.uint32)
    odd = odd | (odd.view(np.float32) != t64).astype(np.uint32)
    once = torch.from_numpy(odd.view(np.float32)).bfloat16()
    wrong = int((torch.from_numpy(t32.reshape(5000, 512)).bfloat16() != once).sum())
    says(CH11, "the cast of the float32 table gets some of them wrong, each on a tie",
         0 < wrong < bf16)


def test_page_phrases_are_whole_sentences():
    """The phrases above sit in prose, not only in a marker's comment."""
    prose = re.sub(r"<!--.*?-->", "", CH11.read_text(), flags=re.S)
    assert "unless its batch exceeds `max_len`" in " ".join(prose.split())
