"""Wording that a review found wrong where no page check can bind the word (a heading, a
definition, alt text, a list's lead-in, a cut sentence): each old phrase must not come back.

Each entry names its page, the phrase (compared with runs of whitespace as one space) and the
finding it closed in docs/data/findings.yml. A sentence whose claim a marker, a claim word, a
cause label or a domain binds is not listed here: its page check already fails on the old text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CH01 = "docs/chapters/01-why-positions.md"
CH07 = "docs/chapters/07-why-pair-sine-with-cosine.md"
CH02 = "docs/chapters/02-what-if-we-use-the-index.md"
CH04 = "docs/chapters/04-from-digits-to-waves.md"
CH05 = "docs/chapters/05-is-one-sine-enough.md"
CH16 = "docs/chapters/16-positions-in-a-running-model.md"
CHECKS = "docs/checks.md"
CH03 = "docs/chapters/03-what-should-a-good-encoding-satisfy.md"
CH10B = "docs/chapters/10b-what-does-a-trained-model-do.md"
ERRATA = "docs/errata.md"
CH09 = "docs/chapters/09-does-it-keep-its-promises.md"
CH13 = "docs/chapters/13-how-precise-is-the-table.md"
CH10 = "docs/chapters/10-inside-attention.md"
CH11 = "docs/chapters/11-a-pytorch-module.md"
CH12 = "docs/chapters/12-variants.md"
CH14 = "docs/chapters/14-learned-embeddings.md"
BUGS = "docs/bugs-that-shipped.md"
CH08 = "docs/chapters/08-building-the-formula.md"
CH06 = "docs/chapters/06-many-clocks.md"

OLD = [
    ("docs/api/internals.md", "they are not the interface",
     "review-2026-12 lead session 14: five of its helpers are in posenc.torch_module.__all__"),
    ("docs/api/plots.md", "return text or style settings, not figures",
     "review-2026-12 lead session 14: new_figure returns (fig, axes); styled returns a function"),
    ("posenc/precision.py", "the PyTorch tutorial and most libraries",
     "review-2026-12 r13h pass 8: no survey backs 'most'; transformers 5.24.0 builds ten models' tables "
     "in float64 and casts them"),
    ("posenc/rounding.py", "thousand values at most",
     "review-2026-12 r13h pass 8: unbound cost advice, cut"),
    ("posenc/precision.py", "float16: inf above 65519",
     "review-2026-12 p12g pass 7: float16 positions overflow from 65520 (65519.5 rounds to 65504)"),
    ("posenc/rounding.py", "rounded to float32; wherever",
     "review-2026-12 p12g pass 7: the fast path rounds to the narrow type (float16 results too)"),
    ("posenc/similarity.py", "the top of the climb that follows",
     "review-2026-12 rapi5 pass 2: the climb stops at a flat step: first_dip([3, 2, 2.5, 2.5, 3]) "
     "gives (1, 2, 0.5) although the curve climbs on to 3"),
    ("posenc/precision.py", "each operation computed in float32 and rounded to the half type",
     "review-2026-12 rapi5 pass 2: for float16 build rounds exp, sin and cos once, straight to "
     "float16 (sin 300: -0.99951171875, not -1.0 through float32), as torch 2.13 CPU does"),
    (ERRATA, "copied into Hugging Face's M2M100; [hojonathanho",
     "review-2026-12 p3k pass 3: a library statement names its version (transformers 5.24.0) and "
     "the block now checks M2M100's docstring and table"),
    (ERRATA, "`pos / 10000 ** (2 * (j // 2) / dim)`",
     "review-2026-12 p3k pass 3: Marian's create_weight (transformers 5.24.0) writes "
     "pos / np.power(10000, 2 * (j // 2) / dim)"),
    (ERRATA, "[Positions can be stored in float16](#float16) | wrong |",
     "review-2026-12 p3k pass 3: the entry's verdict is 'wrong beyond 2048' (float16 holds every "
     "integer up to 2048); the index row dropped the bound"),
    (ERRATA, "the verdict, the check, and the chapter that treats it",
     "review-2026-12 p3k pass 3: #learned-better has no check (a reading of four papers) and "
     "#not-in-practice links no chapter"),
    (ERRATA, "| wrong | the paper, quoted widely |",
     "review-2026-12 p3k pass 3: uncounted; the entry names The Annotated Transformer and a seed "
     "article (rerr1 fixed the entry, not the index row)"),
    (CH10, "numbers the pairs, as everywhere on this site",
     "review-2026-12 p3k pass 3: chapter 15's ALiBi section scores query i against key j "
     "(positions) and RoPE uses m, n; the notation is not site-wide"),
    (ERRATA, "Log space is needed for numerical stability",
     "review-2026-12 p3k pass 3: hkproj#2's maintainer says log space is preferred for stability "
     "and that the direct formula works as well; 'needed' is not his claim"),
    (ERRATA, "Computing in log space is needed for numerical stability",
     "review-2026-12 p3k pass 3: the heading misquoted hkproj#2 ('prefer', not 'needed')"),
    (ERRATA, "`pos / np.power(10000, 2 * i / d)`",
     "review-2026-12 p3k pass 3: quoted lines are verbatim; #32 quotes 2*i/d_pos_vec"),
    (ERRATA, "writes `sin(pos / 10000 ** (2 * i / d))`",
     "review-2026-12 p3k pass 3: Embed.py writes math.sin(pos / (10000 ** ((2 * i)/d_model)))"),
    (ERRATA, "`torch.pow(1000, arange(1, d, 2) / d)`",
     "review-2026-12 p3k pass 3: maxjcohen#62 quotes torch.arange(1, d_model, 2, ...)/d_model"),
    (CH12, "so the last pair's frequency is exactly",
     "review-2026-12 rapi pass 1: the float64 value is 9.999999999999991e-05, not 1/base"),
    (ERRATA, "No: a reading of two papers",
     "review-2026-12 p2o pass 2: #learned-better reads four papers (Devlin, Radford, Vaswani, Wang)"),
    (ERRATA, "the post-norm runs there agree with the pre-norm ones on these three claims",
     "review-2026-12 p2o pass 2: the post-norm runs (three seeds) measure accuracy only, not the "
     "attention #in-principle cites"),
    (CH02, "gives a position a different value in every sequence length",
     "review-2026-12 p2j pass 2: position 0 is 0 in every length"),
    (CH02, "a word vector of length about 7",
     "review-2026-12 p2j pass 2: 24 of 50 toy words are longer than 8 (median 7.99)"),
    (CH02, "does not help: at position 1000",
     "review-2026-12 p2j pass 2: appending delays the 0.99 crossing from position 8 to 61"),
    (CH02, "Each attempt failed a different test",
     "review-2026-12 p2j pass 2: raw index and digits fail the same chapter-3 property, bounded"),
    (CH05, "column cannot serve a long context",
     "review-2026-12 p2j pass 2: at 1000 positions the bound 0.002 is above chapter 3's 0.001"),
    (CH02, "no convention does that",
     "review-2026-12 rerr1 pass 1: (pos + 1/2) / L is strictly inside (0, 1) for every L"),
    (CH12, "the t2t spacing differs in both, growing with position",
     "outside-reads-2026-12 ch12-1: alt text; the Gram-row difference is 1.93 at position 0"),
    (CH12, "# _init_weight: float64",
     "outside-reads-2026-12 ch12-4: Marian's table is built by create_weight in transformers 5.24.0"),
    (CH12, "The conventions of two widely used codebases",
     "review-2026-12 r1214 pass 1: the list names three codebases besides the paper"),
    (CH12, "where each is re-derived from its description and compared",
     "review-2026-12 r1214 pass 1: tests/package/test_variants.py re-derives t2t and fairseq, not Marian"),
    (CH12, '"a model trained from scratch absorbs it"',
     "review-2026-12 r1214 pass 1: a quotation nobody on the site says"),
    (CH12, "the formula defines no table of odd width",
     "review-2026-12 r1214 pass 1: column by column it does (DistilBERT's, Marian's)"),
    (CH12, "An odd \\(d_{\\text{model}}\\) has no definition",
     "review-2026-12 r1214 pass 1: the Summary's restatement"),
    (CH12, "The table is a buffer of `init_size` rows",
     "review-2026-12 r1214 pass 1: a buffer only on fairseq main since 2023, in no release"),
    (CH12, "each is what some model you can download runs",
     "review-2026-12 r1214 pass 1: released DistilBERT configs set sinusoidal_pos_embds false"),
    (CH12, "where `posenc` multiplies by the frequency",
     "review-2026-12 r1214 pass 1: posenc rotates a few exact rows; multiplying leaves most gaps"),
    (CH12, "/2 - 1\\) instead, so the last pair's frequency",
     "review-2026-12 r1214 pass 1: at d_model = 2 t2t's one pair is 1, not 1/base"),
    (CH12, "at any one width the two differ",
     "outside-reads-2026-12 ch12-3: at d_model = 2 both are [1.]"),
    (CH12, "exact for all rows",
     "review-2026-12 r1214 pass 1: allclose, to rounding (as ch12-2)"),
    (CH14, "that fix is free",
     "outside-reads-2026-12 ch14-1: the rows, not a model that uses them (lab: at most 0.31)"),
    (CH14, "rebuild it longer, no training needed",
     "outside-reads-2026-12 ch14-1: the table's cell"),
    (CH12, "Its table is the same function evaluated two rows later",
     "review-2026-12 r1214 pass 1: fairseq's own table (t2t, concatenated) is up to 2.0 away"),
    (CH12, "padding_idx=1): # get_embedding ... half = dim // 2",
     "review-2026-12 r1214 pass 1: the NumPy rewrite is float64, get_embedding float32"),
    (CH14, "786432 for GPT-2 (1024 rows",
     "review-2026-12 r1214 pass 1: GPT-2 small; the family's largest has 1600 columns"),
    (CH12, "DistilBERT's rule from the previous section",
     "review-2026-12 r1214 pass 1: the rule is two sections back (odd width)"),
    (CH12, "and the column permutation `perm`",
     "review-2026-12 r1214 pass 1: by then perm names the RoPE row order (32 entries)"),
    (CH12, "by permuting the rows of \\(W_Q\\) and \\(W_K\\) (not \\(W_V\\)), head by head",
     "review-2026-12 r1214 pass 1: biases too, and only the rotated rows under partial rotary"),
    (CH14, "same interface as the sinusoidal module",
     "review-2026-12 r1214 pass 1: (max_len, d_model) against (d_model, max_len); no positions"),
    (CH07, '"attend 3 back" at every position',
     "review-2026-12 r0107 pass 1: queries 0 to 2 have no key three back (argmax 0)"),
    (CH07, "with each row's highest score on it",
     "review-2026-12 r0107 pass 1: figure alt text; rows 0 to 2 peak at key 0"),
    (CH07, "Query weights M_3: each query scores highest three positions back",
     "review-2026-12 r0107 pass 1: figure caption, same scope"),
    (CH07, "a model needs training positions that exercise all its frequencies",
     "outside-reads-2026-12 ch07-4: a property of the unconstrained fit, not of a model"),
    (CH07, "This is what attention needs.",
     "review-2026-12 r0107 pass 1: attention does not need the rotation (learned tables do "
     "about as well, Vaswani et al. Table 3 row E); it can use it"),
    (CH07, "``` - the bare dot product",
     "outside-reads-2026-12 ch07-6: a list with no lead-in after a code block"),
    (CH01, "(each row has a single 1)",
     "review-2026-12 r0107 pass 1: one 1 per row also fits a copy; P^T P = I needs columns too"),
    (CH01, "The biter and the bitten get identical vectors",
     "review-2026-12 r0107 pass 1: read alone, dog and man get one vector (they differ by 0.677)"),
    (CH07, "nearly constant or nearly straight lines and",
     "review-2026-12 p2a pass 2: pairs 0-21 alone have rank 44 and reproduce the ten slowest "
     "pairs' columns to 9e-12; pair 22's columns are 11% off a straight line"),
    (CH07, "columns are nearly constant or nearly straight and the table",
     "review-2026-12 p2a pass 2: Exercise 3's restatement of the same mechanism"),
    (CH07, "such weights still tell",
     "review-2026-12 p2a pass 2: a pure scaling per pair is in the family and has no direction"),
    (CH07, "(a slow pair) even a big shift barely turns the point",
     "review-2026-12 p2a pass 2: the explorer's base slider goes to 10, where pair 7 of d_model "
     "16 turns 6.65 radians for a shift of 50"),
    (CH07, "# all p: p - 3",
     "review-2026-12 p2a pass 2: the line checks queries from position 3 on; 0 to 2 attend to 0"),
    (CH07, "< 1e-12)  # 14 is near 7 pi - 8",
     "review-2026-12 p2a pass 2: the line showed sin 8 = sin(7 pi - 8), not where 14 is"),
    (CH01, "**Answer.** Self-attention weighs tokens by what they",
     "review-2026-12 p2a pass 2: unscoped; with a causal mask a shuffle does not just move "
     "the rows (the page's own fold, and Haviv et al.)"),
    (CH01, "Most decoders add an explicit positional signal anyway",
     "review-2026-12 r0107 pass 1: a count the page neither makes nor sources"),
    (CH01, 'P^\\top\\), so the step "the score matrix',
     "review-2026-12 r0107 pass 1: a slot bias with P B P^T = B (2I) keeps equivariance"),
    (CH02, "Explainers often quote",
     "review-2026-12 r0205 pass 1: one seed article says it (errata#strictly-between), not 'often'"),
    (CH02, "The often-quoted 0.33",
     "review-2026-12 r0205 pass 1: the same quotation in the Summary"),
    (CH04, "and that the base 10000 is a free choice",
     "review-2026-12 r0608 and r0205 pass 1: chapter 3's checks stop at position 1023"),
    (CH04, "changes a little at each step",
     "review-2026-12 r0205 pass 1: the period-4 column moves by 1 at every step"),
    (CH04, "positions two or more apart can differ in one bit",
     "review-2026-12 r0205 pass 1: two apart is always two bits; the spread starts at three"),
    (CH04, "the pairwise loop above makes",
     "review-2026-12 r0205 pass 1: mean_similarity is one matrix product, no loop"),
    (CH04, "its slow columns do not complete a cycle within 50 positions, so those columns are "
     "nearly constant",
     "review-2026-12 r0205 pass 1: 16 of them swing 0.21 to 2.0 over the 50 positions"),
    (CH05, "(the bound of the next section)",
     "review-2026-12 r0205 pass 1: the bound is in the section before the exercises"),
    (CH05, "no further than 0.836",
     "review-2026-12 r0205 pass 1: sin 0.99 = 0.83603, past 0.836"),
    (CH02, '(Explainers say "strictly between 0 and 1"',
     "review-2026-12 r0205 pass 1: one seed article says it"),
    (CH05, "(Explainers [say otherwise]",
     "review-2026-12 r0205 pass 1: one seed article says it"),
    (CH04, "it spreads the frequencies geometrically",
     "review-2026-12 r0205 pass 1: halving is geometric too; the factor is 1.33, not 2"),
    (CH16, "the long list unless the prompt was prefilled in chunks",
     "review-2026-12 p5a pass 5: a 60-token prompt prefilled in chunks is dropped and recomputed with the long list; only a prompt that crosses the length in chunks is not recomputed"),
    (CH16, "(Ministral 3 aside: it scales queries by position)",
     "review-2026-12 p5a pass 5: Mistral 4 scales its queries by position too"),
    (CH16, "transformers 5.24.0 converts the positions and `inv_freq` to float32",
     "review-2026-12 p5a pass 5: not every rotary module: Wav2Vec2-Conformer's (and Seamless M4T's, CLVP's) multiplies in the type of inv_freq, bfloat16 after a cast; the sentence names LlamaRotaryEmbedding"),
    (CH16, "transformers 5.24.0 multiplies in float32",
     "review-2026-12 p5a pass 5: the Answer names Llama's rotary module, not all of transformers"),
    (CH16, "left padding changes no RoPE score",
     "outside-reads-2026-12 ch16-1: dynamic and longrope tables move with the batch's positions"),
    (CH16, "the configuration wins",
     "outside-reads-2026-12 ch16-5: Phi-3's class default beats a block's explicit value"),
    (CH16, "the explicit field wins",
     "outside-reads-2026-12 ch16-5: the Summary's form of the same rule"),
    (CH16, "text-generation-webui",
     "outside-reads-2026-12 ch16-6: its alpha uses base 10000 and exponent 64/63 whatever the model"),
    (CH16, "any `rope_scaling` block",
     "outside-reads-2026-12 ch16-12: from_rope_parameters refuses proportional"),
    (CH16, "on any device",
     "outside-reads-2026-12 ch16-2: float64 angles, and Apple's MPS has no float64"),
    (CH16, "a trained model can still attend far",
     "review-2026-12 r16 pass 1: a trained-model claim with no lab record"),
    (CH16, "learned to read those angles",
     "review-2026-12 r16 pass 1: a trained-model claim with no lab record"),
    (CH16, "GPT-2's last logits move",
     "review-2026-12 r16 pass 1: a random 2-layer GPT-2 of the Llama's size, not GPT-2"),
    (CH16, "RoPE scores do not change with the shift, a learned",
     "review-2026-12 p2c pass 2: the Summary dropped the dynamic/longrope exception"),
    (CH16, "A sliding layer sees offsets up to its window",
     "review-2026-12 p2c pass 2: read as gpt-oss's (window 128); Gemma 3 masks offset 4096"),
    (CH16, "`factor` (all):",
     "review-2026-12 p2c pass 2: transformers: all rope types except default"),
    (CH16, "Caches that evict tokens",
     "review-2026-12 p2c pass 2: named no cache, paper or library; cut"),
    (CH16, "its `generate` for Phi-3 drops the KV cache",
     "review-2026-12 p3b pass 3: generate(prefill_chunk_size=32) of a 100-token prompt (original "
     "64) keeps the short list on keys 0..63; only the unchunked generate drops the cache"),
    (CH16, "first rises again at offset 18",
     "review-2026-12 p3b pass 3: the bound still falls at 18 (15.40 to 15.35) and rises at 19"),
    (CH16, r"the slope \(2^{-8h/n}\)",
     "review-2026-12 p3b pass 3: with heads numbered from 0, as Exercise 3 does, head 0 would "
     "get slope 1; its slope is 2^(-8/n)"),
    (CH16, "see offsets below their window (4096 by default",
     "review-2026-12 p3b pass 3: 4096 is transformers' class default; Gemma 3's released "
     "checkpoints set sliding_window 1024"),
    (CHECKS, "Flip either and a test fails.",
     "review-2026-12 r16 pass 1: a sample of flips survives (issue 38: 99.6% and 98.8% caught)"),
    (CHECKS, "ask of each check whether it covers the whole range its sentence names.",
     "review-2026-12 r16 pass 1: the question is whether it would fail if its sentence were false"),
    (CH10B, "That is the behaviour Press et al. (2022) built ALiBi for",
     "outside-reads-2026-12 ch10b-1: with a start symbol the wide ALiBi falls to 0.12-0.13 past L"),
    (CH10B, "That is a budget, not a verdict",
     "outside-reads-2026-12 ch10b-1: with a start symbol NoPE and ALiBi learn 3 back in 400 steps"),
    (CH10B, "how these models do it was not measured",
     "outside-reads-2026-12 ch10b-5: the records measure it (ALiBi at most 0.176 on the key 3 back)"),
    (CH10B, "made training noisier, not unstable",
     "outside-reads-2026-12 ch10b-4: the k = 3 raw-index losses rise again in every seed"),
    (CH10B, "training did not find that solution here",
     "outside-reads-2026-12 ch10b-13: pre-norm blocks do not offer M_k on PE as a weight"),
    (CH10B, "A model this size learns a task in a few hundred steps",
     "outside-reads-2026-12 ch10b-10: ALiBi, NoPE and N(0,1) x sqrt(d) need more than 1000"),
    (CH10B, "came mostly with the heads",
     "outside-reads-2026-12 ch10b-9: 4 heads also add slope 1/4 and halve the head width"),
    (CH10B, "The raw index did cost something",
     "outside-reads-2026-12 ch10b-11: the input ratio is the index's own size, normalised first"),
    (CH10B, "RoPE held",
     "outside-reads-2026-12 ch10b-2: at twice the training length only"),
    (CH10B, "states each verdict as a bound that holds in all of them",
     "outside-reads-2026-12 ch10b-7: five clean seeds bound a fresh seed's failure rate at 45%"),
    (CH10B, "That is far below the order-blind baseline there",
     "outside-reads-2026-12 ch10b-3: fresh seed 9 scores 0.354 against 0.447"),
    (CH10B, "by at least 0.060",
     "outside-reads-2026-12 ch10b-6: fresh seed 5 is ahead by 0.017"),
    (CH10B, "does not hide the encoding",
     "review-2026-12 r10b pass 1: a mechanism no run varies; the runs show only (not) learning"),
    (CH10B, "table got there one logging interval sooner",
     "review-2026-12 p2b pass 2: to loss 0.1 sooner; to 0.01 the sinusoid was sooner in two seeds"),
    (CH10B, "0.187 to 0.197, about the order-blind 0.147",
     "review-2026-12 p2b pass 2: 0.04 to 0.05 above it, 8 or more standard errors"),
    (CH10B, "6144 answers each is about 0.009",
     "review-2026-12 p2b pass 2: that is the p = 0.5 worst case; 0.005 at the fifth seed's"),
    (CH10B, "learned and RoPE model. These ALiBi",
     "review-2026-12 p2b pass 2: the sqrt(d_model) sinusoid puts at most 0.148 on the key"),
    (CH10B, "five seeds, three for the settings varied",
     "review-2026-12 p3c pass 3: the token-scale section varies a setting at five seeds"),
    (CH10B, "0 to 2 for the settings the",
     "review-2026-12 p3c pass 3: the token-scale section varies a setting at five seeds"),
    (CH10B, "At the trained length that is 5376 answers, and an accuracy there has a standard error",
     "review-2026-12 p3c pass 3: 0.007 counts the answers as independent; by sequences 0.032"),
    (CH10B, "on 6144 answers each, is 0.005",
     "review-2026-12 p3c pass 3: 0.005 counts the answers of a sequence as independent"),
    (CH10B, "at most 0.258, about the order-blind baseline",
     "review-2026-12 p3c pass 3: 0.04 to 0.11 under it at lengths 8 and 12, 0.032 over at 32"),
    (CH10B, "Inside the training length nothing here favours either",
     "review-2026-12 p3c pass 3: the same paragraph has the learned table sooner in every seed"),
    (CH10B, "inside the training length, but not past it",
     "review-2026-12 p3c pass 3: 2000-step NoPE scores 0.187 to 0.197 past L, over the 0.147"),
    (CH10B, "equal the no-position runs' in all three seeds, about the order-blind baseline",
     "review-2026-12 p3c pass 3: under the baseline at length 8 (0.21 to 0.24 against 0.32)"),
    (CH10B, "Re-run on one machine, a run repeats to the last digit",
     "review-2026-12 p3c pass 3: seed 0 of the past sinusoid re-trained on an AMD EPYC 2-core "
     "VM, torch 2.13.0, scores 0.260 past L, not the record's 0.304; the check runs twice in one "
     "process"),
    (CH10B, "[Chapter 10](10-inside-attention.md) showed that \\(PE_{pos+k}\\) is one linear map",
     "review-2026-12 p3c pass 3: M_k is chapter 7's (The whole vector: a block-diagonal M_k); "
     "chapter 10 has W_Q W_K^T between the encodings"),
    (CH10B, "sinusoid and the index over length through most of training",
     "review-2026-12 p3c pass 3: the raw index's gradient norm is above index/L's in 6 or 7 of "
     "16 logged intervals per seed; index/L ends highest"),
    (ERRATA, "training finds it, though not as reliably",
     "outside-reads-2026-12 ch10b-4: the k = 3 raw-index runs end at loss 0.209 to 0.403"),
    (CH03, "without positions it cannot",
     "outside-reads-2026-12 ch03-1: holds only for inputs with no start symbol"),
    (CH03, "it is what the slow frequencies of the final formula are for",
     "review-2026-12 r0309 pass 1: without every pair slower than 0.1 the d_model 64 table is "
     "still local (0.51); sin and cos at 1, 0.1, 0.01, 0.001 has slow pairs and is not (1.49)"),
    (CH09, "The sections below look at each promise over longer ranges",
     "review-2026-12 r0309 pass 1: length independence, offsets and extends get no longer range"),
    (CH09, "the fastest columns come within 1e-12",
     "review-2026-12 r0309 pass 1: column 20 comes within 1e-13 of -1; columns 0 and 1 only "
     "within 3.8e-6 and 4.5e-10"),
    (CH09, "This needs enough slow pairs",
     "review-2026-12 r0309 pass 1: widths 14 and 16 have nearly the same slowest pair; one more "
     "pair of any speed brings the neighbours back"),
    (CH09, "## Smooth: neighbours are close",
     "review-2026-12 r0309 pass 1: near closer than far is chapter 3's 'local', not 'smooth'"),
    (CH09, "Unique and smooth over 20,000 positions",
     "review-2026-12 r0309 pass 1: near closer than far is chapter 3's 'local', not 'smooth'"),
    (CH09, "often made",
     "review-2026-12 r0309 pass 1: the claims page shows one seed article making it"),
    (CH09, "as [often claimed]",
     "review-2026-12 r0309 pass 1: the claims page shows one seed article making it"),
    (CH09, "which the geometric spread of frequencies prevents",
     "review-2026-12 r0309 pass 1: random, uniform and harmonic spreads keep neighbours closest "
     "too; only evenly spaced frequencies realign (0.129 at offset 188,807)"),
    (CH09, "pairs 1 and 3 add most of the rest",
     "review-2026-12 r0309 pass 1: pairs 1 and 3 add 1.06 of the remaining 2.10; pair 2 adds "
     "0.37, pair 4 0.31"),
    (CH09, "turns each pair by under a radian and the neighbour distance shrinks",
     "review-2026-12 r0309 pass 1: the distance shrinks because pair 0's step (0.96) is gone: "
     "1.4718^2 - 0.9589^2 = 1.1166^2"),
    (CH09, "look for the first bump just after",
     "review-2026-12 r0309 pass 1: in the explorer that bump climbs 0.0554 on an axis of "
     "height 64 (about 0.2 px); the first visible one starts at k = 16"),
    (CH03, "Two verdicts change.",
     "review-2026-12 r0309 pass 1: 'extends' uses the same threshold; at 0.05 the four sines "
     "fail it too (0.019 apart among 1024 positions): three verdicts change"),
    (CH09, "and those do tell",
     "review-2026-12 r0309 pass 1: the identity commutes with the rotations and is the plain dot "
     "product, which cannot tell +k from -k; only blocks with a rotating part can"),
    (CH09, "later with every larger base",
     "review-2026-12 r0309 pass 1: base 2,000 turns negative at offset 298, before base 1,500 "
     "(329)"),
    (ERRATA, "The one direct comparison we know of",
     "review-2026-12 rerr2 pass 1: Wang et al. (ICLR 2021) compare the two inside BERT"),
    (ERRATA, "Written by several explainers",
     "review-2026-12 rerr2 pass 1: unnamed; seed 004 makes the RoPE claim"),
    (ERRATA, "| unsupported | explainers |",
     "review-2026-12 rerr2 pass 1: the table row of #rope-solves, same finding"),
    (ERRATA, "DataTec Studio",
     "review-2026-12 rerr2 pass 1: the quotation is found in no stored source"),
    (ERRATA, "The error grows with the angles",
     "review-2026-12 rerr2 pass 1: 6.4e-07, 4.7e-07, 2.3e-07 at offsets 1, 5, 10"),
    (ERRATA, "\\(\\sin 6 \\approx -0.279\\), far from",
     "review-2026-12 rerr2 pass 1: (1, 2), (0, 3), (4, 5) are closer than (0, 6)"),
    (ERRATA, "trained weights cancel that term",
     "review-2026-12 rerr2 pass 1: the terms in each position alone also move the score"),
    (ERRATA, "at about the accuracy a model ignoring order gets",
     "review-2026-12 rerr2 pass 1: 0.209-0.238 at length 8 against 0.320, unchecked"),
    (ERRATA, "independent of any machine: See",
     "review-2026-12 rerr2 pass 1: the colon introduced a pointer, not the computation"),
    (ERRATA, "lucidrains' code, DUSt3R and others",
     "review-2026-12 rerr2 pass 1: unlinked, others unnamed"),
    (ERRATA, "found learned embeddings performed better than",
     "review-2026-12 rerr2 pass 1: seed 004 says marginally better"),
    (ERRATA, "a few lines of NumPy or mpmath that do not call",
     "review-2026-12 rerr2 pass 1: findings' own figures also come from torch and transformers"),
    (ERRATA, "fixed on its page with a check that fails on the old text",
     "review-2026-12 rerr2 pass 1: three fixed findings say no mechanical check can read them"),
    (ERRATA, "the trained model does not use it",
     "review-2026-12 rerr2 pass 1: seed 0 scores 0.304 past L, twice the order-blind 0.147"),
    (CH13, 'np.isclose(errors[f"float64, stored as {t}"][0], floor',
     "review-2026-12 p4i pass 4: 'a fixed floor' was checked on the first decade only"),
    (CH13, "at 10 sampled positions per decade",
     "review-2026-12 p4i pass 4: the figure's decades hold 8, 9, 10, 10 and 11 distinct positions"),
    (CH13, "we take a sample of 16 positions (the two ends of the decade",
     "review-2026-12 p4i pass 4: the first decade holds 11 distinct positions (draws repeat)"),
    (CH13, "A sample of 16 positions per decade understates",
     "review-2026-12 p4i pass 4: the first decade's sample holds 11 distinct positions"),
    (CH13, "angle = far_pos * 0.99985",
     "review-2026-12 p4i pass 4: 0.99985 is no frequency of d_model 512 (pair 1 is 0.96466) and "
     "50,000 * 0.99985 = 49992.5 is a float32, so the 'within half' check measured a rounding of 0"),
    (CH13, "def worst_of(angle):                  # float64 angles",
     "review-2026-12 p4i pass 4: the comment said float64 angles; angle_only passes float32 ones"),
    (CH13, "the three x86 kernel levels that CI runs (AVX-512, AVX2 and baseline)",
     "review-2026-12 p2h pass 2: no CI job runs the kernel levels and no AVX-512 CPU ran them"),
    (CH13, "the three x86 kernel levels CI tests (AVX-512, AVX2, baseline)",
     "review-2026-12 p2h pass 2: the same, in the exp-or-power section"),
    (CH13, "so the error grows with position: 6.6e-06 at worst",
     "review-2026-12 p6e pass 6: the Answer's figures are d_model 512's; up to one million the "
     "worst is 6.9e-02 at 768 and 7.2e-02 at 1024"),
    (CH13, "Computed in float32 it grows like the position",
     "review-2026-12 p6e pass 6: the Summary restated d_model 512's figures for every width"),
    (CH13, "If you must compute in float32, expect an error of up to about 8.0e-8",
     "review-2026-12 p6e pass 6: 8.0e-8 times the position is d_model 512's; 8.45e-8 at 2,159 "
     "for 2048"),
    (CH13, "runs of a few thousand consecutive positions or longer",
     "review-2026-12 p6e pass 6: a run of 3,000 can need 1.03% exact rows (unaligned start); "
     "under one percent from 3,201 on"),
    (CH13, "on AVX2 and AVX-512 CPUs can nearly double it",
     "review-2026-12 p2h pass 2: AVX-512 never measured here (no such CPU)"),
    (CH13, "SIMD `exp` on AVX2 and AVX-512 is less accurate",
     "review-2026-12 p2h pass 2: AVX-512 never measured here"),
    (CH13, "float32 kernels on AVX2 or AVX-512 CPUs",
     "review-2026-12 p2h pass 2: AVX-512 never measured here"),
    (CH13, "The float32 table PyTorch builds with the tutorial's code",
     "review-2026-12 p2h pass 2: measured with PyTorch's CPU kernels (AVX2, default) only"),
    (CH13, "against 3, so a large rounding is likelier",
     "review-2026-12 p2h pass 2: d_model 512 restricted to its 3 fastest pairs still crosses "
     "1e-3 at 21,000, before d_model 64's 33,000"),
    (CH13, "build in float64 or float32 and cast the finished table",
     "review-2026-12 r13 pass 1: a float32 table's own error passes the float16 floor from "
     "position 4,253 (11.5 times it at 50,000)"),
    (CH13, "(the sixth, built in bfloat16, sits at 2 from the second decade on)",
     "review-2026-12 r13 pass 1: at the figure's positions 100 to 999 it is 0.35 to 1.99"),
    (CH13, "it is at 2 from the second decade on",
     "review-2026-12 r13 pass 1: the same, in the figure caption"),
    (CH13, "near 2 from position 1,000 on",
     "review-2026-12 p3d pass 3: built as PyTorch builds it (a float32 factor), the bfloat16 "
     "table is 1.76 off at position 1,000 and 1.59 at 1,025 (text and caption)"),
    (CH13, "worst, 0.02 in the last pair",
     "review-2026-12 p3d pass 3: 0.005 when the factor is a float32 scalar, as in PyTorch"),
    (CH13, "Float64 `sin` is dearer than float32 `sin`, so float64-then-cast is usually the slowest",
     "review-2026-12 r13 pass 1: a timing stated as a property of the method; now the record's"),
    (CH13, "where starting a second thread costs more than it saves",
     "review-2026-12 r13 pass 1: no recorded timing shows it"),
    (CH13, "PyTorch's own time varied twofold across our runs",
     "review-2026-12 r13 pass 1: not in the record"),
    (CH13, "The division by 512 is exact, but two roundings reach",
     "review-2026-12 r13 pass 1: in float32 the factor -ln(10000)/d is rounded too (a third)"),
    (CH13, "over the same positions, more than ten times",
     "review-2026-12 r13 pass 1: a pointer to positions named only in the next sentence"),
    (CH13, "(the width of BERT and GPT-2)",
     "review-2026-12 r13 pass 1: 768 is BERT-base and GPT-2 small; BERT-large and GPT-2 medium "
     "are 1024"),
    (CH13, "NumPy's float32 kernels can double it",
     "review-2026-12 r13 pass 1: over every position AVX2 raises the decade worsts 1.30 to 1.67 "
     "times"),
    (CH13, "within half a float32 unit (2.98e-8) everywhere",
     "outside-reads-2026-12 ch13-1 (Summary): float64's own angle error grows with the position"),
    (CH13, "is smallest where the two terms balance",
     "review-2026-12 r13 pass 1: the terms are equal at (N/16)^(2/3) = 64; the minimum is at "
     "(N/8)^(2/3)"),
    (CH13, "float32 frequency is rounded by nearly the full half unit",
     "review-2026-12 r13 pass 1: with exact frequencies the wider table still crosses first"),
    (CH13, "the float64 table rounded once to half precision",
     "review-2026-12 r13 pass 1: bfloat16 goes through float32 (to_bfloat16, and PyTorch's own "
     "float64 cast), so twice"),
    (CH13, "(position 9,465 reaches it; from position 10 on,",
     "review-2026-12 r13 pass 1: 8.0e-8 is the maximum over 10 to 9,999 only (8.11e-8 at "
     "37,844), and past 2^24 float32 positions round (9.56e-8 at 16,783,913)"),
    (CH13, "keeps every entry within half a float32 unit",
     "outside-reads-2026-12 ch13-1: no range; the float64 angle's own error grows with the "
     "position (at 10**9 cast entries miss by more than half a unit plus 1e-10)"),
    (CH13, "and explanations say this is",
     "review-2026-12 r13 pass 1: unnamed plural; the claims page names one maintainer's reply "
     "(errata#log-space)"),
    (CH13, "This section moved here from",
     "review-2026-12 r13 pass 1: history the chapter's question does not need (prose budget)"),
    (CH10, "A trained model can learn weights close to that",
     "review-2026-12 r1011 pass 1: no lab record measures the structure of a trained W_Q W_K^T"),
    (CH10, "extra weights for the cheapest version",
     "review-2026-12 r1011 pass 1: concatenating at W_Q and W_K alone costs 524288, less"),
    (CH10, "zeros where content rows meet position columns",
     "review-2026-12 r1011 pass 1: names one off-diagonal block; zeroing it alone leaves "
     "the position-content term"),
    (CH11, "Many tutorials store the table seq-first",
     "review-2026-12 r1011 pass 1: unnamed; the (max_len, 1, d_model) pattern is the PyTorch "
     "tutorial's and its copies"),
    (CH11, "so the model sees no order at all",
     "review-2026-12 r1011 pass 1: a causal mask still gives a decoder order; the positions "
     "carry none"),
    (CH11, "keeps the table's shape, device and dtype fixed",
     "review-2026-12 r1011 pass 1: the module builds a table for each new input dtype and "
     "moves it to the input's device; only the shape is fixed"),
    (CH10, "no-claim: names the cheapest variant",
     "review-2026-12 p2i pass 2: stale reason; pass 1 found W_Q and W_K alone cost less "
     "(524288), and the sentence no longer says cheapest"),
    (CH14, "about a third of a percent (0.36%)",
     "review-2026-12 p2i pass 2: 0.36% is 8% more than a third of a percent"),
    (CH14, "PE_i \\cdot PE_j",
     "review-2026-12 p2i pass 2: ch10 says i numbers the pairs as everywhere on this site; "
     "ch14 used i, j for positions and m for pairs"),
    (CH14, "function of \\(j - i\\) only",
     "review-2026-12 p2i pass 2: the table row in the same notation (now p, q)"),
    (CH10, "so every row is close to the rows' mean",
     "review-2026-12 p2i pass 2: rows lie 0.98-1.30 from a mean of length 2.59 (38-50%); "
     "the check's 0.6 threshold was set to pass"),
    (CH11, "2 in bfloat16 or float16); those fix",
     "review-2026-12 r1011 pass 1: a float32-built module cast with .bfloat16() holds 6 bytes "
     "per entry, not 2"),
    (CH11, "within the error of the tutorial's float32 construction",
     "review-2026-12 p12j pass 3: the load check's bound (1e-5 + 8 pos 2^-24) accepts 5 to 10 times the tutorial's error"),
    (CH11, "Positions must be integers, and not negative",
     "review-2026-12 p12j pass 3: int16, int8 and uint8 positions are refused (int64 or int32 only)"),
    (CH11, "the ties are a handful",
     "review-2026-12 p2l pass 2: 29 bfloat16 ties (15 wrong casts) in 2,560,000 entries and a "
     "check bound of < 100; the prose now states the bound the check checks"),
    (BUGS, "recomputes the cache (checked below), but the rotary module",
     "review-2026-12 p2g pass 2: with prefill_chunk_size, Phi-3's generate keeps the keys of the "
     "chunks before the switch, rotated with the short factors"),
    (BUGS, "transformers#33129 in `generate` |",
     "review-2026-12 p2g pass 2: the table row of the same finding"),
    (BUGS, "and inputs up to the trained length keep the original base",
     "review-2026-12 p2g pass 2: on the module's path an input of exactly the trained length "
     "after a longer one keeps the enlarged base (0.3333)"),
    (CH04, "Six of chapter 3's seven properties do not mind the shape",
     "review-2026-12 p2m pass 2: one zigzag made a rule; tanh(20 sin x) is smooth yet fails 'smooth'"),
    (CH04, "how many bits flip on the way",
     "review-2026-12 p2m pass 2: 1 to 3 flips 3 bits on the way, the rows differ in 1"),
    (CH04, "three or more apart can differ in one bit or in several",
     "review-2026-12 p2m pass 2: Gray codes four or eight apart always differ in two bits"),
    (CH03, "closest pair 0.03 apart, distinct at 0.001 but not at 0.05, among 256 positions and among the 1024",
     "review-2026-12 p2m pass 2: among the 1024 of 'extends' the closest pair is 0.019, not 0.03"),
    (CH03, "at most 1, the scale of an embedding entry",
     "review-2026-12 p2m pass 2: BOUND = 1 is the sines' own maximum; 'the scale of an embedding entry' was unsourced"),
    (CH12, "padding_idx=1):  # get_embedding, float64",
     "review-2026-12 p2k pass 2: transformers 5.24.0 get_embedding computes in float32"),
    (CH12, "absorbs the layout, and only plausibly the offset",
     "review-2026-12 p2k pass 2: a hedge; what the fold shows is that only the permutation commutes"),
    (CH12, "A Marian checkpoint's table and an M2M100 checkpoint's table differ by up to 2.0",
     "review-2026-12 p2k pass 2: 2.0 is width 64; at width 512 (Marian's) it is 0.71 over 512 rows"),
    (CH12, "a rare entry can differ by one float32 step",
     "review-2026-12 p2k pass 2: near zero the two differ by up to 11 float32 steps (2^-24 at most)"),
    (BUGS, "a dropped offset is right at position 0",
     "review-2026-12 p2g pass 2: no entry of the page is a dropped offset; the cache entry's "
     "bug keys by length"),
    (BUGS, "transformers 5.24.0 computes the product differently: its `forward`",
     "review-2026-12 p2g pass 2: 171 model files multiply in float32; the rotary modules of "
     "Wav2Vec2-Conformer, Wav2Vec2-BERT, SeamlessM4T and CLVP type positions as inv_freq"),
    (BUGS, "float16 and bfloat16 rows, do not describe this one.",
     "review-2026-12 p2g pass 2: after .half() Wav2Vec2-Conformer's rotary table has the old "
     "pipeline's 0.88 cosine error over 2048 positions"),
    (ERRATA, "16 float64 epsilons (relative) on any machine",
     "review-2026-12 p2p pass 2: scope past the check (errata#log-space), which runs on one "
     "machine; the bound rests on the platform's exp and pow"),
    (ERRATA, "the two give frequencies up to 42% apart",
     "review-2026-12 p2p pass 2: measured against the code's frequencies only "
     "(errata#yarn-paper-vs-code); the code's reach 1.73 times the paper's"),
    (CH04, "Embedding entries average about 0 too",
     "review-2026-12 p2m pass 2: measured on the 50 toy words only (mean 0.004)"),
    (CH09, "a sum of many cosines at close frequencies tends to have smaller ripples",
     "review-2026-12 p2n pass 2: 32 pairs 0.965 apart climb 25.58 after the first dip, not 0.0117"),
    (CH09, "they come from coincidences among the fast pairs, not from any one of them",
     "review-2026-12 p2n pass 2: in 214 of the 490 rises one pair alone climbs at least the rise"),
    (CH09, "by offsets in the tens all pairs have turned far",
     "review-2026-12 p2n pass 2: at offset 46 five of 32 pairs of base 100 are under a radian"),
    (CH02, "a different value in every sequence length",
     "review-2026-12 p3g pass 3: two 'every' in one sentence; flipping one to 'some' passed"),
    (CH02, "reach just the bottom of the slow columns' range",
     "review-2026-12 p3g pass 3: the hundreds column reaches 5 of its 0-9 in 512 positions"),
    (CH14, "below the baseline in three of five seeds",
     "review-2026-12 p3g pass 3: the count moves with the CPU: seed 4 re-trains to 0.1397 "
     "on AVX2 (record 0.1507, AVX-512) against a baseline of 0.1475, four of five"),
    ("docs/index.md", "[section 3.4, section 5.4](references.md#vaswani)",
     "review-2026-12 p3g pass 3: 'at the bottoms of the encoder and decoder stacks' is "
     "section 3.5 of the paper"),
    ("docs/index.md", "The decoder is different: its attention is masked",
     "review-2026-12 p3g pass 3: the decoder's cross-attention sees every encoder position; "
     "only its self-attention is masked (paper section 3.2.3)"),
    (CH14, "whatever some explainers say",
     "review-2026-12 p3g pass 3: 'marginally better' for BERT and GPT-2 is in one seed article "
     "(004) of the four"),
    ("docs/index.md", "values of one bounded number need not coincide",
     "review-2026-12 p3g pass 3: 2/(n - 1) holds for values in [-1, 1]; a number bounded by 10 "
     "only gets 20/(n - 1)"),
    ("docs/index.md", "says which are true, loose or wrong",
     "review-2026-12 p3g pass 3: 6 of the 38 claims page verdicts are unsupported or "
     "convention"),
    (CH12, "Row by row the two tables are nothing alike",
     "review-2026-12 p3f pass 3: row 0 of the two layouts has cosine 0.5; they share columns 0 and 511"),
    (CH12, "against exactly \\(2\\pi \\cdot 10000\\)",
     "review-2026-12 p3f pass 3: 2 pi / 9.999999999999991e-05 in float64; line 97 says up to rounding"),
    (CH12, "interchangeable exactly when the map is a permutation",
     "review-2026-12 p3f pass 3: a mean-keeping reflection also folds into a pre-norm network's weights"),
    (CH12, "dim // n_heads // 2, 2, dim).transpose(1, 2).reshape(dim, dim)",
     "review-2026-12 p3f pass 3: the conversion's permute reads dim1 and dim2 (dim1 = key_value_dim for K)"),
    (CH12, "when that file and its measurements disagree, so a change on either side shows up",
     "review-2026-12 p3f pass 3: the test accepts a factor of 8 either way"),
    (CH04, "holds for a column only over whole periods",
     "review-2026-12 p3f pass 3: column 0 (7.96 periods) and the slowest sine (0.001 of one) both average 0.003"),
    (CH04, "a slow column stays far from 0 until",
     "review-2026-12 p3f pass 3: the slowest sine column averages 0.003 over 50 positions; slow cosines stay near 1"),
    (BUGS, "serving a length shorter than the trained one makes the multiplier negative",
     "review-2026-12 p3a pass 3: f n / L - (f - 1) is negative only below (1 - 1/f) L; a served "
     "length of 1500 (L 2048, f 2) gives 0.46"),
    (BUGS, "is not a real number",
     "review-2026-12 p3a pass 3: (-0.5)^(32/31) has a real 31st-root value; Python's power is complex"),
    (BUGS, "In that pipeline the largest cosine error",
     "review-2026-12 p3a pass 3: 0.88 and 1.96 are float16's; in bfloat16 the error is 2.0 within "
     "2048 positions"),
    (BUGS, "None confirmed: the OpenLM issue is closed",
     "review-2026-12 p3a pass 3: mlfoundations/open_lm#5 (Positional embedding xformers fix) merged"),
    (BUGS, "| OpenLM: issue closed;",
     "review-2026-12 p3a pass 3: mlfoundations/open_lm#5 merged"),
    (BUGS, "both merged (July 2024 and June 2026)",
     "review-2026-12 p3a pass 3: merge months not shown in the stored threads (opened 2024-07-24, "
     "2026-06-11)"),
    (BUGS, "(April 2026; release not confirmed)",
     "review-2026-12 p3a pass 3: vllm#41277 opened 2026-04-29; its merge date is not in the stores"),
    (BUGS, "for GPT-J\", September 2023)",
     "review-2026-12 p3a pass 3: vllm#941 opened 2023-09-04; merge date not seen"),
    (BUGS, "transformers#33129, merged (August 2024)",
     "review-2026-12 p3a pass 3: #33129 opened 2024-08-26; merge date not seen"),
    (BUGS, "merged (October 2025)",
     "review-2026-12 p3a pass 3: vllm#27431 opened 2025-10-23; merge date not seen"),
    (BUGS, "longest input seen so far",
     "review-2026-12 p3a pass 3: a reset in between starts over (4096, 100, 3000 -> 0.5182)"),
    (BUGS, "an input is longer than any before, and restores",
     "review-2026-12 p3a pass 3: growth compares with max_seq_len_cached, which the reset lowers"),
    (BUGS, "a no-op for the weights and a common idiom",
     "review-2026-12 p3a pass 3: 'a common idiom' is unsourced; cut"),
    (BUGS, "where transformers, mlx-lm and llama.cpp use the rotary width",
     "review-2026-12 p3a pass 3: transformers' Gemma 4 proportional layers use the head width; "
     "pie#602 names Qwen3-Next"),
    (BUGS, "the numbers of vllm#52665",
     "review-2026-12 p4b pass 4: vllm#52665's stored thread shows only its title; 512, -0.5 and "
     "base 1000 are in vllm#52675's description, which the sentence now names"),
    (BUGS, "GPT-NeoX and Llama pair",
     "review-2026-12 p4b pass 4: Meta's Llama reference pairs adjacent coordinates (complex "
     "numbers over reshape(..., -1, 2), chapter 12); only transformers' Llama pairs (i, i + d/2)"),
    (BUGS, "bugs that reached a release of a widely used library",
     "review-2026-12 p4b pass 4: not shown for every entry (pie#602/#603 and MLXcel#1355 name "
     "no release); the intro now says only that each bug was reported in a public thread"),
    (BUGS, "n/a (transformers passes positions, not a cached length)",
     "review-2026-12 p4b pass 4: CLVP's, SeamlessM4T's, Wav2Vec2-BERT's and Wav2Vec2-Conformer's "
     "rotary modules cache by sequence length (cached_sequence_length); they are built in encoders, "
     "whose forward takes no offset, so the verdict n/a stands for another reason"),
    (BUGS, "(tensor2tensor) | n/a | open |",
     "review-2026-12 p4b pass 4: transformers 5.24.0 has the computation: TimesFmPositionalEmbedding "
     "multiplies by config.min_timescale (fastest inverse timescale 2.0 at min_timescale=2, 0.5 "
     "if divided); Gemma 4's audio encoder hard-codes min_timescale = 1.0. Live, harmless at 1"),
    (CH08, "neither the paper nor chapter 4 rules them out",
     "review-2026-12 p3j pass 3: an even, linear spacing with the same ends fails chapter 3's "
     "locality check at d_model = 64 (offset 46,948 at 0.115 against 3.208 for neighbours)"),
    (CH08, "only a step between \\(\\pi\\) and \\(2\\pi\\) looks like a step back",
     "review-2026-12 p3j pass 3: steps past 2 pi alias too (3.5 pi reads as 0.5 pi back)"),
    (CH09, "Mostly: it passes all seven checks",
     "review-2026-12 p3j pass 3: only from width 10; widths 2 to 8 fail locality (d_model 8: "
     "position 63 is 0.645 from 0, neighbours 0.964)"),
    (CH09, "The distance from position 0 climbs quickly",
     "review-2026-12 p3j pass 3: the million-position claim named no width; false at 2 to 14"),
    (CH09, "Claims that a position can be more like a farther one than a nearer one",
     "review-2026-12 p3j pass 3: the page's own first rises (offset 6 above 5 at d_model 64) "
     "make that claim true; pointer cut"),
    (CH03, "sinusoid) copied the symbol three back",
     "review-2026-12 p3i pass 3: the offset model trained on lengths 16 and 32, so 24 and 32 are "
     "inside training; the sentence now says so"),
    (CH03, "two widths. Narrower tables are not local",
     "review-2026-12 p3i pass 3: the width-8 edge is base 10000's (base 1000: width 8 is local; "
     "base 100000: width 10 is not)"),
    (CH03, "number theory guarantees a near-revisit",
     "review-2026-12 p3i pass 3: unchecked aside, cut"),
    ("docs/tour.md", "seven properties a good encoding must have",
     "review-2026-12 p3i pass 3: chapter 3 calls them hypotheses, not theorems (the raw index "
     "fails 'bounded' and the lab's model still copies 3 back at >= 0.978)"),
    (CH05, "the slow one tells apart the positions the fast one confuses",
     "review-2026-12 p3i pass 3: of the 131 pairs sin(pos) puts within 2/99 over 0-99, the slow "
     "wave keeps 5 within 2/99 too (14 and 77 among them); it separates 121 by more than 0.1"),
    (CH05, "(An explainer [says otherwise](../errata.md#zero-and-six).)",
     "review-2026-12 p3i pass 3: the explainer is unnamed (errata: 'Made in the seed articles'); "
     "the parenthesis now points at the claims page's check"),
    (CH04, "shows that other spacings would fit the same ends",
     "review-2026-12 p4e pass 4: chapter 8 tries one other spacing with the same ends (even, "
     "linear) and it fails locality at d_model = 64; no other spacing there fits"),
    (CH12, "where the fairseq family grows its table",
     "review-2026-12 p4e pass 4: transformers 5.24.0 Speech2Text's table grows for a longer "
     "input only; a cached decoding step past its end raises IndexError (max_pos ignores "
     "cache_length)"),
    (CH08, "'s locality check at \\(d_{\\text{model}} = 64\\)",
     "review-2026-12 p4g pass 4: chapter 3's locality check (positions 0-255) fails the linear "
     "spacing only up to width 64; at 96, 128, 256 and 512 it passes all seven checks, yet a far "
     "offset under 20,000 comes closer than neighbours (512: offset 1602, 1.79 vs 9.02)"),
    (CH09, "all seven properties; widths 2 to 8 fail locality.",
     "review-2026-12 p4g pass 4: width 2 fails extends as well as locality (offset 710 is "
     "113 turns less 6e-5 rad: two of 1,024 positions 6e-5 apart); the fold prints each "
     "width's failed checks"),
    (CH09, "- Unique and local over 20,000 positions",
     "review-2026-12 p4g pass 4: the Summary named no width; widths 2 to 14 have a far offset "
     "under 20,000 closer than neighbours (8: offset 6283, 0.186 vs 0.964)"),
    (CH08, "The fastest pair should turn by one radian per position",
     "review-2026-12 p4g pass 4: the two reasons (neighbours differ, a step under half a turn) "
     "bound omega_0 to (0, pi); they do not single out 1: stated as the formula's choice"),
    (CH08, "every layer grows: a Transformer layer has about",
     "review-2026-12 r14c pass 6: 12 d^2 is an encoder layer (torch 2.13: 12.03 d^2 at 512); the "
     "paper's decoder layers add cross-attention, 16.04 d^2 (4,204,032 weights at d = 512)"),
    (CH08, "code multiplies it by the reciprocal",
     "review-2026-12 r14c pass 6: a rule from the PyTorch tutorial's line; widely copied tutorial "
     "code (getPositionEncoding: np.sin(k/denominator), denominator = n**(2i/d)) divides, as the paper"),
    (CH05, "is eight times farther from an integer multiple",
     "review-2026-12 p3i pass 3: for the 11/55 pair the 22/7 factor is |sin 22| = 0.0089, for "
     "a + b = 179 it is |179 - 57 pi| / 2 = 0.035 (4x); the closest pairs differ 22x; cut"),
    (CH05, "which is why the way out is a second column, not a cleverer single wave",
     "review-2026-12 p4h pass 4: the bound rules one number out only past 2001 positions; over "
     "chapter 3's 256 positions sin(3.14 pos) keeps every pair 0.0016 apart and passes uniqueness"),
    ("docs/run-it-yourself.md", "A block saved to a file runs with",
     "review-2026-12 p4h pass 4: a block saved alone prints none of its >>> outputs (ch05's first "
     "block prints nothing) and a later block fails (NameError: name 'single_sine' is not defined)"),
    ("docs/sources-ledger.md", "a Python expression on a table built from the paper's formula",
     "review-2026-12 p4h pass 4: 20 of the 185 checks are plain arithmetic (000-12 round(1 / 3, 2), "
     "001-17 a clock's hands) and 18 read lab records; none calls posenc"),
    (CH03, "packing in further positions takes further columns",
     "review-2026-12 p4f pass 4: one column suffices at these ranges; pos / 512 - 1 passes all "
     "seven checks (the Exercise 1 block prints it)"),
    (CH03, "No naive candidate passes them all",
     "review-2026-12 p4f pass 4: true of the six registered candidates only; a shifted ramp "
     "passes all seven"),
    (CH03, "learned position embeddings satisfy few of them by construction",
     "review-2026-12 p4f pass 4: unchecked; cut"),
    (CH06, "together they cover the product of their ranges",
     "review-2026-12 p4f pass 4: true of tick hands; the waves at 1 and 0.1 lie on the curve "
     "(sin 10t, sin t), not the square; cut"),
    (CH06, "positions every hand helps",
     "review-2026-12 p4f pass 4: its check held for any added column; now at least 1.5-fold "
     "over 256 and 1024 positions"),
    (CH10B, 'the verdicts of "Past the training length" stand',
     "review-2026-12 p4d pass 4: post-norm RoPE kept 0.8758 in seed 0, under the past verdict's "
     "own bound (above 0.9); the axes experiment re-decides it at 0.8. Now the figures alone, "
     "with RoPE's pre-norm 0.971 beside its 0.875"),
    (CH10B, "the sections below re-run the verdicts they could change",
     "review-2026-12 p4d pass 4: width and heads were re-run for ALiBi alone, the paper's init "
     "for the sinusoid alone, the placement for 6 of 9 schemes; now 're-run some verdicts'"),
    (CH10B, "untrained, with the same weights, its outputs differ",
     "review-2026-12 p4d pass 4: the 1e-5 bound was checked at 32 positions only; at 48 (the "
     "past experiment's test length) and 64 the gap reaches 1.5e-5; now 'inputs of up to 32 "
     "symbols', checked at the runs' seeds and lengths"),
    (CH14, "the learned table at most 0.082",
     "review-2026-12 p4c pass 4: record-precise bound (worst seed 0.0819, evaluation standard "
     "error 0.0045); now the verdict's own bound, the order-blind 0.147"),
    (CH14, "the sinusoid at most 0.31",
     "review-2026-12 p4c pass 4: the worst seed's 0.3042 is a kernel figure: seed 0 re-trains "
     "to 0.2596 on AVX2; now the verdict's bound, below 0.5"),
    (CH14, "Unlike the sinusoidal table, a learned table is a parameter",
     "review-2026-12 p4c pass 4: true of posenc's module only; transformers 5.24.0 keeps "
     "Marian's sinusoidal table as a frozen nn.Parameter, in its state_dict and checkpoints"),
    (CH14, "some training sequence is long enough to use it",
     "review-2026-12 p4c pass 4: a sequence of 8 tokens from position 8 (the module's start) "
     "gives rows 8 to 15 their gradient; which rows learn is set by the positions reached"),
    (CH14, "Rows beyond the longest training sequence get zero gradient",
     "review-2026-12 p4c pass 4: only when every sequence starts at position 0"),
    (CH14, "| rows beyond the training length |",
     "review-2026-12 p4c pass 4: the table's row, same scope as the Summary's"),
    (CH14, "alone, and the offset structure is gone",
     "review-2026-12 p4c pass 4: 'gone' holds at learning rate 0.1 (spread 1.31); one step at "
     "0.01 leaves 0.08, at 0.001 0.0075; the rate is now stated"),
    (ERRATA, "The reason we prefer log space is numerical stability",
     "review-2026-12 p4k pass 4: hkproj/pytorch-transformer#2's reply says 'The reason we prefer "
     "doing it in log space is for numerical stability'; the quoted heading now has his words"),
    (ERRATA, "over \\(L\\), as there, the first token",
     "review-2026-12 p4k pass 4: the seed article (Position = index / sequence_length) never says "
     "whether its index starts at 0; the verdict covers 0- and 1-based positions and pos/(L-1)"),
    (ERRATA, "The base sets the slowest wavelength near",
     "review-2026-12 p4k pass 4: one width made a rule: at d_model = 8 the slowest wavelength is "
     "6,283 (nearer base than 2 pi base), at 16 it is 19,869; cut, the entry keeps 60,611 at 512"),
    (CH09, "is the first candidate on this site to pass all seven properties",
     "review-2026-12 p4f pass 4: chapter 3's Exercise 1 shows a ramp passing all seven; true of "
     "the registered candidates"),
    ("docs/tour.md", "two different words point almost the same way",
     "review-2026-12 p4m pass 4: 'from position 6 on' is the folded picture's sample (64 entries "
     "of spread 0.5; at spread 1.0 it is 9 to 12); the main line now names the sample"),
    (CH10B, "At twice it, the only ratio tested",
     "review-2026-12 lab1 pass 1: start.json tests every model at 2x, 4x and 8x"),
    (CH10B, "training length; no longer input was tested",
     "review-2026-12 lab1 pass 1: RoPE at 8x scored 0.442 to 0.809 (start.json)"),
    (CH10B, "the two were not compared at one width and budget",
     "review-2026-12 lab1 pass 1: ratio.json compares them at width 32, 400 steps, start symbol"),
    ("docs/chapters/15-what-came-next.md", "That is one task at one ratio, 2x",
     "review-2026-12 lab1 pass 1: the lab now tests 2x to 8x"),
    ("docs/tour.md", "at most 0.082 with a learned table",
     "review-2026-12 p4c pass 4 (fixed by lab1): 0.082 cleared the worst seed by 0.0001"),
    (ERRATA, "scored 0.073 to 0.31 up to",
     "review-2026-12 p4c pass 4 (fixed by lab1): 0.31 rounded the AVX-512 seed 0 outwards"),
    (ERRATA, "the learned table stayed at most 0.082",
     "review-2026-12 p4c pass 4 (fixed by lab1): the verdict's threshold is 0.147"),
    (CH10B, "The learned table's fell to at most 0.082",
     "review-2026-12 p4c pass 4 (fixed by lab1): the verdict's threshold is 0.147"),
    (CH10B, "at least 0.971, and not beyond",
     "review-2026-12 rlab pass 1: RoPE kept 0.979 and 0.998 at 4x in two of six runs (start.json)"),
    (CH10B, "near the order-blind 0.147",
     "review-2026-12 rlab pass 1: without positions, with a start symbol, 0.108 to 0.116 at 2x, "
     "below 0.147 in each seed"),
    (CH10B, "At one width, head count and budget",
     "review-2026-12 rlab pass 1: the setting is ALiBi's two gentle slopes; named"),
    (CH10B, "At unseen positions that fell to at most 0.31.",
     "review-2026-12 p4c pass 4 (fixed by lab1): the shift verdict's threshold is 0.5"),
    (CH04, "an even spacing with the same ends fails locality",
     "review-2026-12 p5c pass 5: true at d_model 64 only; at 128, 256 and 512 the even spacing "
     "passes all seven of chapter 3's checks, and chapter 8 shows far offsets under 20,000 "
     "closer than neighbours; now 'puts some far positions closer than neighbours'"),
    (CH04, "needs continuous columns: waves",
     "review-2026-12 p5c pass 5: continuous columns need not be waves; chapter 3's ramp "
     "pos/512 - 1 is continuous and passes smooth and all seven checks"),
    ("posenc/plots/waves.py", "(phase 0: crests on integers)",
     "review-2026-12 p5c pass 5: the period-2 column's crests sit at 0.5, 1.5, ...; crests "
     "fall on integers from period 4 on"),
    ("docs/tour.md", "Take query weights \\(W_Q = M_3\\).",
     "review-2026-12 p4m pass 4: the highest score three back needs W_K = I too; now stated"),
    (BUGS, "the `generate` of Phi-3, PhiMoE and Phi-4-multimodal recomputes the cache with the long",
     "review-2026-12 p5b pass 5 (major): PhiMoE's rotary forward rebuilds inv_freq from the "
     "configuration without seq_len, so it uses short_factor at every length; its recompute is "
     "short too. The LongRoPE fold now runs PhimoeRotaryEmbedding next to Phi-3's"),
    (BUGS, "correct: the base follows the input length",
     "review-2026-12 p5b pass 5: on the rotary module the base follows the longest input after "
     "the last reset (4096 then 3000 gives 0.3333, not 0.5182); the fold now checks that path"),
    (BUGS, "do not describe this one; they do describe the rotary modules of",
     "review-2026-12 p5b pass 5: the figures are a 128-wide head's; the four speech modules ship "
     "heads of 64 and 32 (float16 error 0.78 over 2048 positions); the fold runs each at its "
     "own configuration"),
    (BUGS, "A model cast still rounds `inv_freq`, a buffer: the float32 product",
     "review-2026-12 p5b pass 5: PhiMoE, one of the 194 files, recomputes inv_freq in float32 "
     "in every forward, so a cast rounds only its unused buffer; the sentence names Llama's "
     "forward"),
    (CH09, "so the table does too, at any position",
     "review-2026-12 p5f pass 5: posenc's float64 rows are built by rotations, whose rounding "
     "passes +-1 by one unit at some positions (encode([1769157409], 2) has -1.0000000000000002)"),
    (CH09, "climb back 25.5838 after their first dip",
     "review-2026-12 p5f pass 5: 25.5838 is for the unrounded ratio 0.96466; the 0.965 written "
     "gives 25.878; both round to 26"),
    (CH14, "adds its rows to `x` from `start`",
     "review-2026-12 r13l pass 7: the module reads x as (batch, seq, d_model); a seq-first x of "
     "600 tokens passes a 512-row table with no error, so the page names the layout"),
    (CH14, "512. `nn.Embedding` alone reports",
     "review-2026-12 r13l pass 7: IndexError is the CPU's; on CUDA the lookup is a device-side "
     "assert that surfaces later (pytorch/pytorch#19120)"),
    (CH14, "Every row of the sinusoidal table has the same length",
     "review-2026-12 r13l pass 7: odd='drop_last' at width 7 gives row lengths 1.732 to 2.000"),
    (CH14, "| function of \\(q - p\\) only |",
     "review-2026-12 r13l pass 7: odd='drop_last' at width 7, 1024 rows: diagonal spread 0.31"),
    (CH14, "a spread of 1.28 on a scale from",
     "review-2026-12 r13l pass 7: cosines lie in [-1, 1]; a spread of them lies in [0, 2]"),
    (CH14, "(diagonal spread 1.28 versus rounding error",
     "review-2026-12 r13l pass 7: 1.28 is one seed's 16 x 8 table; the figure's 64 x 64 tables "
     "give 0.64-0.83 (seeds 0-19); cut"),
    (CH14, "after one SGD step (learning rate 0.1) with a loss on 8-token inputs",
     "review-2026-12 p5f pass 5: 'gone' is set by the summed loss, not the rate: the mean of the "
     "same squares at learning rate 0.1 leaves a spread of 0.002-0.004"),
    (CH14, "alone; at learning rate 0.1 the offset structure is gone",
     "review-2026-12 p5f pass 5: as above; the solution names the summed loss"),
    ("docs/tour.md", "nearly align (a cosine above 0.99 from position 6 on)",
     "review-2026-12 p5e pass 5: sampled: 3,447 of 400,000 random pairs (64 entries of spread "
     "0.5) need position 7, 3 need 8 (seed 143 is the first default_rng seed needing 7); now "
     "'in 99% of pairs', the fold counts 5,000 pairs"),
    ("docs/tour.md", "W_Q = M_3: every query (from position 3 on) attends 3 back",
     "review-2026-12 p5e pass 5: with W_Q = M_3 the key 3 back scores highest but gets only "
     "0.028 of the softmax weight at width 64; a second marker checks 32 M_3 (0.974)"),
    ("docs/tour.md", "It carries no direction, though",
     "review-2026-12 p5e pass 5: 'It' read as the encoding is false (step 5 tells 3 back from "
     "3 ahead; ch09: direction is still in the encoding); now 'That similarity carries no direction'"),
    (CH12, "build their tables in float64 and round once, as",
     "review-2026-12 p5g pass 5: they round once to float32; a float16 or bfloat16 model "
     "rounds that again (transformers 5.24.0 Marian, 1024 x 512 in float16: 37 entries differ "
     "from one rounding)"),
    (CH12, "whose angles `transformers` takes in float32",
     "review-2026-12 p5g pass 5: one of the two RoPE rows is Meta's reference code, "
     "re-implemented in the test, not transformers"),
    (CH16, "another way to give the attention factor. - `short_factor`",
     "review-2026-12 p6a pass 6: in DeepSeek-style attention (DeepSeek V3, Mistral 4 and 13 more "
     "model files of transformers 5.24.0) mscale_all_dim also multiplies the softmax scale by "
     "(0.1 m ln s + 1)^2; the bullet said only that it gives the rotary attention factor"),
    (CH16, "odd-numbered slopes of \\(2p\\) heads, which fall between the first ones",
     "review-2026-12 p6a pass 6: the first added slope, 2^(-4/p), is steeper than all p slopes "
     "(6 heads: 1/2 > 1/4; 24 heads: 0.8409 > 0.7071), for every count not a power of two"),
    (CH16, "llama.cpp on the size of the context it allocates",
     "review-2026-12 p6a pass 6: llama.cpp's get_rope_factors compares n_ctx_seq, which is "
     "n_ctx / n_seq_max unless the KV cache is unified, with the original length"),
    (CH13, "they carry no information (correlation at most 0.019",
     "review-2026-12 p5h pass 5: built in bfloat16, column 0 correlates -0.173 with the exact "
     "column over 1024..2047 and +0.114 over 2048..4095; 0.019 was their cancellation"),
    (CH13, "before it the fast columns still follow",
     "review-2026-12 p5h pass 5: the correlations hold for the 8 fastest columns; the 40 with "
     "omega > 1/2 reach 0.877 over 100..255"),
    (CH13, "more than ten times what the spelling changes",
     "review-2026-12 p5h pass 5: the spelling moves the worst error by 8.4e-6 but entries by up "
     "to 2.44e-4, more than the 1.22e-4 it was said to be a tenth of"),
    (CH13, "The float32 table PyTorch builds on CPU",
     "review-2026-12 p5h pass 5: a library statement names its version (PyTorch 2.13)"),
    (CH13, "while NumPy's kernels on AVX2 CPUs",
     "review-2026-12 p5h pass 5: a library statement names its version (NumPy 2.4)"),
    (CH13, "At NumPy's AVX2 and baseline levels",
     "review-2026-12 p5h pass 5: a library statement names its version (NumPy 2.4)"),
    (CH13, "NumPy's SIMD `exp` on AVX2",
     "review-2026-12 p5h pass 5: a library statement names its version (NumPy 2.4)"),
    (CH13, "with NumPy's float32 kernels on AVX2 CPUs",
     "review-2026-12 p5h pass 5: a library statement names its version (NumPy 2.4)"),
    (CH13, "tables of a few thousand positions or longer",
     "review-2026-12 p5h pass 5: under one percent holds for consecutive positions; 10,000 "
     "positions 1,000 apart need 10,024 exact rows"),
    (CH13, "built the tutorial's way, their worst error is 31 times",
     "review-2026-12 p5h pass 5: 31 is position 50,000's ratio; 14 to 36 over 40,000..60,000"),
    (CH13, "with blocks of 1 each start is its own row",
     "review-2026-12 p5h pass 5: with block 1 the starts take one exact row per group of eight, "
     "not one each"),
    (CH13, "dominated by rounding the angle to float64",
     "review-2026-12 p5h pass 5: at one million the exact angle rounded once to float64 leaves "
     "4.3e-11 of direct evaluation's 9.1e-11; the float64 frequency times the position the rest"),
    (CH16, "how much longer the served context is than the trained one. - `original_max",
     "review-2026-12 p6a pass 6: for `dynamic` the factor is a gain, not the length ratio: in "
     "transformers 5.24.0 the slowest pair at n times the trained length is slowed by "
     "1 + factor (n - 1) (13 for factor 4 at 4 times)"),
    ("docs/run-it-yourself.md", "In the folder where you saved the wheel (on Windows",
     "review-2026-12 p5d pass 5: the three commands need Python 3.11 (requires-python); on "
     "3.10.13 pip stops with 'requires a different Python'; the page named no version"),
    ("docs/run-it-yourself.md", "if one of them is missing:",
     "review-2026-12 p5d pass 5: an installed matplotlib 3.9 or mpmath 1.2 (older than the "
     "extras ask) stops --no-index with the same 'No matching distribution found'"),
    ("docs/run-it-yourself.md", "whose code the page does not show",
     "review-2026-12 p5d pass 5: 39 exec blocks show their code in a tab with a copy button; "
     "the fold now scans those tabs too"),
    (BUGS, "the `generate` of Phi-3 and Phi-4-multimodal recomputes the cache",
     "review-2026-12 p6b pass 6 (major): Phi-4-multimodal's prepare_inputs_for_generation drops "
     "the cache without resetting next_sequence_length, so generate feeds only the newest token "
     "and past the switch each step runs without context (cache of 1 token after generate)"),
    (BUGS, "survives in the rotary modules of Wav2Vec2-Conformer, Wav2Vec2-BERT, SeamlessM4T and CLVP",
     "review-2026-12 p6b pass 6: MusicFlamingo and EfficientLoFTR also build positions in "
     "inv_freq's type; after .half() MusicFlamingo's cosines are off by 2.0 over 20 windows"),
    (BUGS, "step past the trained length is a longer input than any before, so the base changes at each step",
     "review-2026-12 p7b pass 7: after a 4096-token input, decoding steps at 3000 and 3001 keep "
     "the 4096 base (dynamic_rope_update grows only past max_seq_len_cached); only steps past "
     "the longest input since the last reset change it"),
    (BUGS, "elementwise and returns the cosines in the input's type",
     "review-2026-12 p7b pass 7: 25 of the 194 model files with Llama's product return float32 "
     "cosines (OLMo, OLMo 2, Ernie 4.5: 'keeping it in full precision'; DeepSeek-V2 a complex "
     "table); Olmo2RotaryEmbedding on a bfloat16 input returns float32"),
    (BUGS, "unless it prefills the prompt in chunks",
     "review-2026-12 p7b pass 7: a prompt shorter than the original length prefilled in chunks "
     "still gets the recompute at the switch (keys equal a fresh forward); only a prompt past the "
     "original length prefilled in chunks keeps short-factor keys"),
    ("posenc/precision.py", "[round(x, 6) for x in e[\"float32 angle (tutorial)\"]] < [1e-3, 1e-3]",
     "review-2026-12 rapi3 pass 1: a list comparison is lexicographic, so the example never "
     "checked the second decade; it now prints both decades' errors"),
    ("posenc/relative.py", "the ALiBi paper's rule (section 3",
     "review-2026-12 rapi3 pass 1: the paper's section 3 gives the power-of-two sequence; the "
     "rule for other head counts is the authors' code (get_slopes), as chapter 16 says"),
    ("posenc/relative.py", "checked for 1 to 112 heads",
     "review-2026-12 rapi3 pass 1: tests/package/test_conformance.py checks 14 head counts from 1 to 112"),
    ("posenc/candidates.py", "the others accept and ignore it",
     "review-2026-12 rapi3 pass 1: the other candidates check length (raw_index([5], length=3) "
     "raises)"),
    ("posenc/precision.py", "Every method in :data:`METHODS` gives the same bits on every machine",
     "review-2026-12 rapi3 pass 1: three methods round encode's float64 table, whose bits differ "
     "between CPUs (X86_V3 against X86_V2)"),
    ("posenc/properties.py", "the scale of a token embedding's entries",
     "review-2026-12 rapi3 pass 1: true of chapter 4's toy embedding (spread 1.01); Hugging Face "
     "initialises token embeddings with std 0.02 (BERT, GPT-2 in transformers 5.24.0)"),
    ("docs/run-it-yourself.md", "To see the same text as the pages, start with",
     "review-2026-12 p5d pass 5: under NumPy 1.26 (numpy>=1.26 allows it) the line warns "
     "'legacy printing option can currently only be '1.13', '1.21', or `False`' and is not needed"),
    ("docs/run-it-yourself.md", "sees the NumPy, matplotlib and mpmath you already have",
     "review-2026-12 p6h pass 6: a venv made from a virtual environment's python3 sees the base "
     "installation's packages, not the virtual environment's (No matching distribution found)"),
    ("docs/run-it-yourself.md", "No network is needed when NumPy, matplotlib and mpmath are already installed",
     "review-2026-12 p6h pass 6: only when python3 itself, not a virtual environment, has them"),
    ("docs/run-it-yourself.md", "`jupyter notebook playground.ipynb`).",
     "review-2026-12 p5d pass 5: the notebook's last cell imports posenc.lab, which needs torch "
     "(ModuleNotFoundError: posenc.lab needs torch ...) after the three commands"),
    (CH12, "builds the table under any combination of the choices",
     "review-2026-12 p6f pass 6: the choices named in the Answer include the odd-width ways; "
     "encode_variant has two of them, not DistilBERT's or Marian's (d_model = 5: none of its 8 "
     "spacing x layout x odd tables matches either)"),
    (CH12, '`"interleaved"`, offset 0; odd width',
     "review-2026-12 p6f pass 6: section 3.5 says 'where pos is the position' and never where "
     "positions start; offset 0 is the code's (tensor2tensor's start_index=0)"),
    (CH05, "distinct, bounded, changing gradually",
     "review-2026-12 p5d pass 5: the values 0, 0.84, 0.91 jump 0.84 (42% of [-1, 1]) in one "
     "step; neighbours over 0-99 are typically 0.68 apart; only the wave between them is smooth"),
    (CH09, "- Bounded in \\([-1, 1]\\), and every row",
     "review-2026-12 p6d pass 6: the Summary restated the bound without Bounded's pass-5 "
     "qualification (posenc's float64 rows, built by rotations, can pass 1 by rounding)"),
    (CH09, "we want the encodings to stay well apart",
     "review-2026-12 p6d pass 6: cut to pay for the Summary's 'up to rounding'"),
    (CH04, "so smoothness needs continuous columns",
     "review-2026-12 p6c pass 6: chapter 3's smooth check caps a jump at 0.1; Gray bits scaled by "
     "0.05 (two values) pass it (move 0.05), so finitely many values do not fail it"),
    (CH16, "mask. A forward call without `position_ids` numbers the columns instead, pads included.",
     "review-2026-12 p7a pass 7: true of Llama and GPT-2, not of every model: OPT's forward "
     "(transformers 5.24.0) numbers positions from the attention mask (last-logit gap 7e-08 "
     "with 3 pads, GPT-2 0.36)"),
    (CH16, "**factor**: YaRN and Llama 3 need the block's `factor`",
     "review-2026-12 p7a pass 7: `linear` and `dynamic` blocks without `factor` are refused "
     "with the same KeyError in transformers 5.24.0"),
    (CH10B, "One result differs",
     "review-2026-12 rlm pass 1: three differ from Press et al. (2022): their rotary stayed below "
     "the sinusoid past L (section 2.2, Tables 2-3) and their ALiBi improved with longer inputs "
     "(section 4.1); here RoPE overtook the sinusoid at 8L and ALiBi stayed flat"),
    (CH10B, "ALiBi matched Press et al.",
     "review-2026-12 rlm pass 1: their ALiBi improved with longer inputs; the lab's stayed flat"),
    (BUGS, "keeps scores relative, so nothing crashes",
     "review-2026-12 p8a pass 8: relativity is not why nothing crashes; a non-relative transform of "
     "the same shape in GPT-J's attention runs too (finite logits, shape (1, 20, 16)); cut"),
    (BUGS, "transformers#33129 in unchunked `generate`",
     "review-2026-12 p8a pass 8: chunked generate of a short prompt is recomputed, unchunked "
     "generate of an all-left-padded batch is not (the entry's own checks)"),
    (BUGS, "for 512, vllm#52675's numbers",
     "review-2026-12 p8a pass 8: vllm#52675 gives 512 -> -0.5 only; 1500 -> 0.46 is the page's own "
     "example"),
    (BUGS, "the number of tokens already in the KV cache",
     "review-2026-12 p8a pass 8: a sliding-window cache stops growing (Mistral, window 4: 3 keys "
     "stored at position 12); the offset is the number of tokens before the new one"),
    (CH10B, "within 0.03 for ALiBi",
     "review-2026-12 rlm pass 1: the sliding-window estimate (4,096 bytes) is at the noise of "
     "ALiBi's other 64-position blocks (-0.022..+0.041); no sliding evaluation was run; cut"),
    (CH09, "So the position never makes the encoding larger",
     "review-2026-12 p7e pass 7: the bound on each entry does not fix the length (entries in "
     "[-1, 1] allow any length up to sqrt(d_model)); the constant length comes from sin^2 + cos^2 "
     "= 1, the next section; cut"),
    (CH12, "the columns of each one that writes into it",
     "review-2026-12 p7c pass 7: the relabelling recipe left out the writers' biases; with a bias "
     "b_out added to the page's pre-norm block, permuting all but b_out changes the output "
     "(allclose False), permuting b_out too keeps it (True)"),
    (CH10B, "At trained positions the sinusoid model put at least 0.978",
     "review-2026-12 p8d pass 5: 0.978 is the mean over trained positions 3-23 (weakest seed "
     "0.9783); at single trained positions the weight falls to 0.9575 (seed 3)"),
    (CH10B, "and kept at least 0.938 at the unseen positions",
     "review-2026-12 p8d pass 5: 0.938 is seed 0's mean over positions 24-47; single unseen "
     "positions go down to 0.7986"),
    (CH10B, "the right panel does so for",
     "review-2026-12 p8d pass 5: right after 'Their Figure 1' it reads as Press et al.'s right "
     "panel, which is their L = 1,024 model; the page means its own figure below"),
    (CH10B, "no model got a whole sequence right at 2x.",
     "review-2026-12 p8d pass 5: at 1x no model got more than 0.766 of whole sequences right "
     "(the model without positions and ALiBi at most 0.071); the Summary gave 2x alone"),
    (CH10B, "the same accuracy per position; in CI",
     "review-2026-12 p8d pass 5: tests/site/browser/test_lab_widget.py allows logits within 2e-5, weights "
     "within 2e-4 and one answer in 64 per position (near-tied logits flip)"),
    (CH10B, "here RoPE's loss inside the training length",
     "review-2026-12 p8d pass 5: the gap is the 4-head ALiBi's; with the paper's 8 heads ALiBi "
     "seed 0 scores 1.9956 at W = 64 against RoPE's 1.9186, a gap of 0.077 < 0.12"),
    (CH10B, "not a proof of it for a language model",
     "review-2026-12 p8d pass 5: stale since the lab trained a language model (section above)"),
    (CH10B, "were still learning it, at most 0.730.",
     "review-2026-12 p8d pass 5: the sinusoid's seed 2 was no further (0.712 of outputs, 0.027 of "
     "whole sequences at n = 8, its loss still falling); fresh seed 3: 0.513"),
    (CH10B, "would put its weight on the key 3 back at all positions, seen or not",
     "review-2026-12 p9d pass 6: RoPE, one map by construction, puts a mean of 0.450 on the key 3 "
     "back at 8x (seed 0) and 0.984 with the keys 24 or more back hidden"),
    (CH10B, "seeds 0 to 4, by 0.060 to 0.237. It",
     "review-2026-12 p9d pass 6: the 0.060 is seed 0's on AVX-512 kernels; the added model's seed "
     "0 scores 0.260 on AVX2 (margin 0.105) and 0.324 on default kernels (0.041)"),
    (CH10B, "0.304,\n  about the order-blind baseline)",
     "review-2026-12 p9d pass 6: seed 0 scores twice the 0.147 and seed 3 half of it"),
    (CH10B, "and the sinusoid to about that baseline. Why",
     "review-2026-12 p9d pass 6: in three seeds of five; seed 0 scores 0.304, seed 3 0.073"),
    (CH10B, "raised both by at least a fifth of the answers",
     "review-2026-12 p9d pass 6: ALiBi's seed 1 gains 0.2087, 0.9 standard errors over a fifth "
     "(the lab's error for a difference, sqrt(0.5 / 5376)): a fresh evaluation set crosses it "
     "in 18% of reruns, against the lab's 1%"),
    (CH16, "still rounds its frequencies, and the angles are a radian off from 559",
     "review-2026-12 p8f pass 8: 559 and 6094 are a Llama 3 head's (width 128, base 500000); "
     "Llama 2's base 10000 gives 818 and 4138, Llama 3's width 64 1095 and 15852"),
    (CH16, "Partial rotary rotates the first `rotary_dim` coordinates",
     "review-2026-12 p8f pass 8: DeepSeek V3 and Mistral 4 (partial_rotary_factor 0.5) rotate "
     "the last qk_rope_head_dim coordinates: query = cat(q_pass, q_rot)"),
    (CH13, "less precise than the power form in float32, not more",
     "review-2026-12 p8e pass 7: true from d_model 14 on where tried, not at every width: with "
     "correctly rounded kernels the float32 exp form is 0.57 epsilons off at d_model 6 against "
     "the power's 1.39 (10: 0.60 against 1.36)"),
    (CH13, "leaves it up to a few float32 units off",
     "review-2026-12 p8e pass 7: the exp spelling's float32 frequencies are up to 7.02 units in "
     "the last place off (pair 232 of d_model 512)"),
    ("posenc/encoding.py", "not on which other positions were asked for",
     "review-2026-12 p8h pass 2: one fractional position sends every row to the direct formula: "
     "rows 0..199999 at d_model 64 in float32 with 0.5 appended differ at 562 entries"),
    ("posenc/scaling/xpos.py", "(``downscale=True`` for keys), re-derived in ``tests/package/test_scaling.py``.",
     "review-2026-12 p8h pass 2: torchscale's XPOS.forward numbers rows from "
     "-(length + offset) // 2, so its factors differ from xpos_scales' (scores agree); the test "
     "re-derived only the buffer"),
    ("posenc/torch_module/table.py", "plus one chunk",
     "review-2026-12 p8h pass 2: a 16-bit build peaks at 2.1 to 3.0 chunks of NumPy memory "
     "beyond the output (tracemalloc), plus PyTorch's cast of each chunk"),
    ("posenc/torch_module/table.py", "a torch tensor of any floating dtype",
     "review-2026-12 p8h pass 2: four dtypes (FLOAT_DTYPES); float8 reached ties() and failed "
     "naming only the 16-bit types"),
    ("posenc/precision.py", "the float64 table rounded once;",
     "review-2026-12 p8h pass 3: 'float64, stored as bfloat16' rounds through float32, as "
     "PyTorch's cast does: 11 entries of 4096 x 512 differ from a single rounding"),
    ("posenc/precision.py", "Round to the nearest bfloat16 (ties to even), returned as float32.",
     "review-2026-12 p8h pass 3: a float64 input is rounded to float32 first: "
     "1 + 2**-8 + 2**-40 gives 1.0, the nearest bfloat16 is 1.0078125"),
    (BUGS, "(llama.cpp, Unsloth) | correct | llama.cpp#8676, unsloth#6197 |",
     "review-2026-12 p9a pass 9: the llama3 entry names three libraries and three merged fixes; "
     "the table row left out MLXcel (lablup/mlxcel#1355) and its fix mlxcel#1385"),
    (BUGS, "computes the product differently in 194 of its model files",
     "review-2026-12 p9a pass 9: 194 counts the files that carry Llama's product line; "
     "mistral_large4 multiplies float32 positions by a float32 inv_freq with another line"),
    ("posenc/encoding.py", "both equal to this float32 table;",
     "review-2026-12 p8h pass 2: equal at 1,024 rows (pass 1's sample); at 4,096 x 512 DistilBERT's "
     "and Marian's tables each differ at 3 entries by one float32 unit, as chapter 12 says"),
    ("posenc/precision.py", "PyTorch casts it: once to float16",
     "review-2026-12 p8h pass 3, its own first fix: PyTorch's float64 -> float16 cast goes through "
     "float32 too (141 entries of 4096 x 512 differ from NumPy's single rounding, which the method "
     "uses)"),
    ("posenc/torch_module/table.py", "plus at most 3.5 chunks",
     "review-2026-12 p8h pass 2, its own first fix: 3.52 chunks at d_model 32768, 7.3 at d_model "
     "2 (the int64 positions outweigh narrow rows); the total is cut"),
    (CH05, "cannot keep many positions apart, whatever its frequency",
     "review-2026-12 p9b pass 8, p8b's own fix: at chapter 3's 0.001 one frequency does keep many "
     "positions apart (omega 3.131 keeps 100 at least 0.0104 apart, omega 3.14 passes uniqueness "
     "over 256); what no frequency does is keep over 2001 positions 0.001 apart"),
    (CH05, "the frequency only moves the problem",
     "review-2026-12 p8b pass 7: rested on omega 1 and 0.1; over positions 0 to 99 omega 3.131 "
     "keeps every pair at least 0.0107 apart (45 times omega = 1's 0.000235, half of 2/99) with "
     "neighbours typically 1.01 apart; what no frequency does is beat 2/99"),
    (CH13, "uses it for every table of integer positions.",
     "review-2026-12 p8e pass 7: since p8h's change a request of integer-valued floats past 2**53 "
     "(all floats there are integers) is evaluated directly: encode([2.0**60], 8) equals the direct "
     "float64 table; within 2**53 the rotation"),
    (CH10B, "The seeds add the raw index",
     "review-2026-12 p8c pass 5: on this page 'seeds' are random seeds; the scheme is chapter 2's"),
    (CH10B, "trains the seeds' own scheme",
     "review-2026-12 p8c pass 5: on this page 'seeds' are random seeds; the scheme is chapter 2's"),
    (CH10B, "each recorded verdict on an accuracy",
     "review-2026-12 p8c pass 5: five verdicts on accuracies carry no flip chance (60 of 65 do)"),
    (CH10B, "both learned much of it in 400 steps",
     "review-2026-12 p8c pass 5: with a start symbol two-head ALiBi's seed 1 reached 0.470"),
    (CH10B, "At the trained length that is 5376 answers",
     "review-2026-12 p9c pass 6: 5376 answers (standard error 0.007) only at length 24; the "
     "order task's 12 has 2048 (0.011), the index task's 16 has 3840 (0.008)"),
    (CH10B, "The other 19, on ratios",
     "review-2026-12 p9c pass 6: the records hold 97 verdicts; 37 carry no flip chance, 18 of "
     "them the language model's losses and one on parameter counts"),
    (CH10B, "Past the training length (next section) the two differ",
     "review-2026-12 p9c pass 6: no check read it ('do not differ' passed the page); in seed 3 "
     "the sinusoid and the learned table are 0.0732 and 0.0703 past L"),
    (CH10B, "still near the order-blind baseline after 400 steps",
     "review-2026-12 p10c pass 7: near it inside the training length only; past it ALiBi and the "
     "model without positions scored 0.200 to 0.230 against 0.147"),
    (CH10B, "And it trains every scheme at one constant learning rate",
     "review-2026-12 p10c pass 7: the language model on the same page warms up over 100 steps, "
     "then decays on a cosine"),
    (CH10B, "The start-symbol and reverse records were made",
     "review-2026-12 p10c pass 7: the language model's record was also made on 2026-12-07 with "
     "AVX2 kernels"),
    (CH10B, "and tests at twice the longest length it trained on",
     "review-2026-12 p12c pass 8: the index, offset, same and order experiments test no longer "
     "than they train (1x); the 'at most' of 22955ed was lost when 189ef5b added 4x and 8x"),
    (CH10B, "the share of it kept past the training length from 0.571",
     "review-2026-12 p12c pass 8: an order-blind model keeps 0.643 (0.147 / 0.229), above the "
     "2-head figures 0.571 to 0.583; the share is quoted beside it"),
    (CH13, "which forms no large argument to round",
     "review-2026-12 p9e pass 8: the power's argument -2i/d rounds too where d is not a power of "
     "two, magnified by ln 10000 like x: 1.54 of its 1.96 epsilons at d_model 768; at 512 it is "
     "exact in binary, which is why the power is correctly rounded there"),
    (CH13, "leaves it up to 7\n   float32 units off",
     "review-2026-12 p9e pass 8 (p8e's fix): the worst pair is 7.02 units off, past an 'up to 7'"),
    (CH13, "`make bench` (`scripts/bench.py --record docs/data/bench-builders.json`)",
     "review-2026-12 p9e pass 8: make bench runs scripts/bench.py without --record; it never "
     "writes the record the page shows"),
    (CH13, "run `make bench` to repeat it",
     "review-2026-12 p9e pass 8: make bench does not update docs/data/bench-builders.json"),
    ("posenc/encoding.py", "(integers or real numbers, negative allowed)",
     "review-2026-12 p9h pass 3: integers past 2**53 are refused (and 2**53 + 1 used to pass as "
     "2**53); real numbers past it are evaluated directly"),
    ("posenc/variants.py", "ending at ``1 / base`` (the ``max``",
     "review-2026-12 p9h pass 3: at d_model 2 the guard gives the one frequency 1, not 1 / base"),
    ("posenc/distances.py", "How many pairs to return.",
     "review-2026-12 p9h pass 3: count 10 on three rows returns the three pairs there are"),
    ("posenc/distances.py", "The position of each row (default",
     "review-2026-12 p9h pass 3: nan or repeated positions broke pos_a < pos_b; now refused"),
    ("posenc/precision.py", "tensors, as PyTorch runs it on CPU:",
     "review-2026-12 p9i pass 4: PyTorch 2.13's CPU float16 sin and cos are not correctly "
     "rounded: 2 of 2048 x 64 entries of the tutorial run on float16 tensors differ from the "
     "method by one unit (sin 0.2093505859375: 0.207763671875, correctly rounded 0.2078857421875)"),
    ("posenc/fit.py", "about 1 for a useless one",
     "review-2026-12 p9i pass 4: the zero map gives exactly 1; random maps give 1.36 to 1.48"),
    ("posenc/relative.py", "so the list is not sorted: head ``p`` gets",
     "review-2026-12 p9i pass 4: the docstring numbers slopes h = 1 .. n, under which head p has "
     "2 ** -8; the steepest is at index p counting from 0"),
    (BUGS, "**Fix.** vLLM: none, the issue is open.",
     "review-2026-12 p10a pass 10: vllm#56446 (merged) made vLLM's generic YaRN read mscale and "
     "mscale_all_dim as transformers does; vllm#48621 stays open"),
    (BUGS, "(vLLM, ExLlamaV3) | correct | vLLM: open;",
     "review-2026-12 p10a pass 10: the table's fix column names vllm#56446"),
    (BUGS, "adds the odd-numbered slopes of twice that many heads",
     "review-2026-12 p10a pass 10: only the first n - p of them are added (12 heads: 4 of 8)"),
    ("posenc/_checks.py", "Argument checks shared by every public function",
     "review-2026-12 p10h pass 4: distances, gram and even_width check their own arguments"),
    ("posenc/encoding.py", "longer tables differ at rare entries by one float32 unit",
     "review-2026-12 p10h pass 4: at 8,192 x 512 an entry near 1.3e-7 differs by 11 float32 units "
     "of its own; the bound is 2**-24 absolute"),
    ("posenc/variants.py", "a whole-number sum must be exact in float64",
     "review-2026-12 p10h pass 4: a fractional offset past 2**52 merged rows too (2**53 - 2 + 1.5 "
     "and 2**53 - 1 + 1.5 both round to 2**53); now refused"),
    ("posenc/torch_module/table.py", "never the whole table in float64",
     "review-2026-12 p10h pass 4: a float64 table is the whole table in float64; CHUNK_ENTRIES "
     "sizes the 16-bit path only"),
    ("posenc/distances.py", 'Used by the chapters "Is one sine enough?", "Why run',
     "review-2026-12 p10h pass 4: chapters 3 and 7 call nearest_pairs too"),
    (CH10B, "virtual machine with 2 cores, the machine that recorded the lab",
     "review-2026-12 p10d pass 7: the lab's records come from two CPUs (AVX-512 on 2026-11-27, "
     "AVX2 on 2026-12-07); the widget ran on 2026-11-27"),
    (CH10B, "Only [two sections](#a-start-symbol-and-4x-and-8x-the-training-length)",
     "review-2026-12 p10d pass 7: since pass 6 the one-map section also quotes a run at 8x"),
    (CH10B, "Three results differ.",
     "review-2026-12 p10d pass 7: a count no check bound (a flip to 'Two' passed the page); cut"),
    (CH10B, "and that concatenation avoids them at a cost",
     "review-2026-12 p12d pass 8: chapter 10 shows concatenation gives the same four terms, which "
     "vanish only if the weights keep the halves apart; the lab's concatenated model has them"),
    ("posenc/similarity.py", "exact, so cosines keep their bits",
     "review-2026-12 p10i pass 4: ldexp rounds a subnormal entry: cosine_similarity([1, 1.5e-323], "
     "[0, 1]) gave 2e-323; vectors of ordinary magnitude are now left alone"),
    ("posenc/similarity.py", "row by row: 1 for the same direction, 0 for orthogonal",
     "review-2026-12 p10i pass 4: a vector against itself gave 1.0000000000000002; now clipped"),
    ("posenc/precision.py", "PyTorch's own float16 ``sin``",
     "review-2026-12 p10i pass 5: a library statement names its version (torch 2.13.0+cpu)"),
    ("posenc/layouts.py", "and hence the Gram matrix, is the same. The order",
     "review-2026-12 p11h pass 5: the two layouts' Gram matrices differ by up to 2.1e-14 (summation order)"),
    ("posenc/omega_forms.py", "float32 ``exp`` and ``power`` differ from CPU to CPU",
     "review-2026-12 p11h pass 5: NumPy 2.4.6 float32 power gave the same bits with X86_V3 off; exp did not"),
    (CH05, r"a frequency \(\omega\) stretches the wave",
     "review-2026-12 p12b pass 9: for omega > 1 (the Answer's grid to pi, Ex3's 3.14) the wave is "
     "squeezed, not stretched; now 'rescales'"),
    (CH06, "hand whose frequency is a whole multiple of 1 is also near a whole number of turns",
     "review-2026-12 p12b pass 6: holds for 2 to 10 times; at 11, 13, 15, 21-23 the (1, n) clock's "
     "closest pair is not 44 apart, at 22 the closest 44-apart pair is 0.30 apart"),
    (CH06, "with the 28 hands between them",
     "review-2026-12 p12b pass 6: 7 of the 28 other hands are slower than 0.001, not between"),
    (CH06, "# slower is better",
     "review-2026-12 p12b pass 6: the comment stated the rule its paragraph refutes; the line shows "
     "only that 0.01 beats 0.5"),
    (CH06, "times the first (not 11) is also near a whole number of turns",
     "review-2026-12 r13b pass 7: 44 steps are 0.031 turns off at 11, 0.028 at 10, 0.034 at 12 "
     "(whose closest pair is 44 apart again): the turns do not end the run at 11; a mirror pair "
     "5, 17 (a + b = 22, near 7 pi and, times 11, 77 pi) comes closer"),
    (CH06, "Which offset comes close to whole turns on both hands",
     "review-2026-12 r13b pass 7: at 0.48 and 0.51 the slow hand's collision is a mirror pair "
     "(0.48 * 72 near 11 pi, 0.51 * 154 near 25 pi), 0.36 and 0.43 turns off whole turns"),
    (CH13, "with NumPy's baseline kernels they match",
     "review-2026-12 p12e pass 10: at NumPy's baseline level float32 exp, sin and cos are the C "
     "library's expf, sinf, cosf bit for bit (glibc 2.36: 0 of 8,000 differ); the match is libm's"),
    (CH13, "baseline levels, its own float32 kernels give errors",
     "review-2026-12 p12e pass 10: at baseline the kernels are the C library's, not NumPy's own"),
    (CH13, "with its baseline kernels it is not",
     "review-2026-12 p12e pass 10: at baseline NumPy's float32 exp is the C library's expf"),
    (CH13, "Each level adds one complex product",
     "review-2026-12 p12e pass 10: the second level adds two (one to the offset, one to the "
     "start): an entry takes three complex products"),
    ("posenc/_checks.py", "Each check raises ``TypeError`` for a value of the wrong kind",
     "review-2026-12 p12f pass 6: check_layout(1) and check_dtype(object()) raise ValueError (tests/package/test_bad_input.py wants it)"),
    ("posenc/torch_module/table.py", "its low 13 bits, for float16, or 16, for bfloat16, are exactly half a step",
     "review-2026-12 p12f pass 6: below 2**-14 float16's ties are odd multiples of 2**-25, not the low-13-bit pattern"),
    ("posenc/distances.py", "The fast distance (``|x|^2 + |y|^2 - 2 x.y``) loses ~1e-8 to cancellation",
     "review-2026-12 p12f pass 6: 4.8e-7 at width 512, 5.9e-6 at 16,384 (a wrong closest pair there)"),
    ("posenc/distances.py", "so memory stays at ``_BLOCK_ENTRIES`` whatever ``n`` is",
     "review-2026-12 p12f pass 6: every tied pair is kept; nearest_pairs(np.eye(3000), 2) asked for 101 GiB"),
    ("posenc/_checks.py", "beside an int or a float, NumPy would read True as 1 and round 2**53 + 1",
     "review-2026-12 p12f pass 6: [np.array(2**53 + 1), 0.5] and [np.array(True), 2] slipped past the list check"),
    ("posenc/omega_forms.py", '"How do the pieces make the formula?" (docs/chapters/08-building-the-formula.md) measures',
     "review-2026-12 p12f pass 6: chapter 8 sends the question to chapter 13, which measures the spellings"),
    ("posenc/scaling/__init__.py", "changes only the frequencies ``omega_i`` it rotates by",
     "review-2026-12 p12i pass 6: YaRN (sqrt(1/t) on queries and keys) and LongRoPE (a factor on "
     "cosines and sines) also scale the rotated vectors"),
    ("posenc/scaling/__init__.py", "The released code rounds the ramp's two ends to whole pairs",
     "review-2026-12 p12i pass 6: the released code's ramp is linear in the pair index, not in turns; "
     "truncate=False at d 64, L 4096 differs from the paper's ramp by up to 0.38"),
    ("posenc/scaling/yarn.py", "and the released code's ``LlamaYaRNScaledRotaryEmbedding``, checked in",
     "review-2026-12 p12i pass 6: tests/package/test_conformance.py runs transformers' yarn only"),
    ("posenc/relative.py", "which differs from this by ``slope * i`` in each query row",
     "review-2026-12 p12i pass 7: with causal=False the bias differs from Bloom's slope * j by more "
     "than a row constant (softmax off by 0.20 at n 6, slope 0.25)"),
    (CH10B, "so this is a budget, not a ceiling",
     "review-2026-12 lead pass 8: an inference no recorded run settles (p12d left it; no run trains "
     "the scaled model past 400 steps): cut, the falling loss stays"),
    (CH05, "almost equal. One clock cannot do both.",
     "review-2026-12 lead pass 9 (from p12b's note): over positions 0 to 99 one wave at omega near "
     "3.131 keeps every pair 0.0104 apart, more than chapter 6's two hands (0.0093); only the "
     "2001-position bound rules one wave out"),
    (CH01, "No layer above can recover who bit whom",
     "review-2026-12 p12m pass 3: only layers that ignore slots; a causal layer above gives the "
     "two dogs different vectors"),
    (CH02, "Either way the trouble is the same. The value",
     "review-2026-12 p12m pass 5: the gaps 0.10 and 0.02 are pos/L's; pos/(L - 1) gives 1/9 in "
     "a 10-token sequence"),
    (CH07, "the table has numerical rank 44, not 64",
     "review-2026-12 p12l pass 4: 44 at NumPy's default tolerance only (43 at 1e-9, 46 at 1e-13)"),
    (CH07, "reproduce theirs: numerical rank 44.",
     "review-2026-12 p12l pass 4: Exercise 3, same tolerance"),
    (CH07, "shift is cheaper done pair by pair",
     "review-2026-12 p12l pass 4: no check read the cost comparison"),
    (CH07, "There is also a structural reason",
     "review-2026-12 p12l pass 4: the exercise's positions 0 to 999 hold no p and -p; over "
     "-500..499 the residual is 0.487 against 0.460"),
    ("docs/bugs-that-shipped.md", "and the paper's default to any other block",
     "review-2026-12 lead pass 11 (from p12a's note): ExLlamaV3 65e724c's exllamav3/util/rope.py "
     "computes the ratio, 1.0 or the paper's default only under `if attn_factor is None:`; a "
     "block's explicit attention_factor comes first"),
    (CH10B, "a start symbol for all but the learned table",
     "review-2026-12 r13d pass 9: the raw index (both forms) and the concatenated sinusoid also ran "
     "'3 back' and never had the start symbol; it was added for four schemes"),
    (CH10B, "in seed 0 also with those keys hidden",
     "review-2026-12 r13d pass 9: the 'So' needs the control in every seed; seeds 1-4 re-trained "
     "with the far keys hidden: 0.164, 0.158, 0.077, 0.150 on the key 3 back"),
    (CH10B, "kept at least 0.971 (at 8x, 0.442 to 0.809)",
     "review-2026-12 r13d pass 9: a minimum of seeds 0-4 (8x: 0-2) stated bare in the Summary; "
     "fresh seed 5 kept 0.9689"),
    (CH01, "The mask gives a decoder order information only",
     "review-2026-12 r13a pass 4: true of one causal layer; with two stacked causal layers the "
     "swap [0, 2, 1, 3, 4] changes the rows of slots 3 and 4 too, whose prefix sets are unchanged"),
    (CH01, "breaks it partly, encoders not at all",
     "review-2026-12 r13a pass 4: read as 'encoders do not break the symmetry', false for an "
     "encoder with positions; the body says the narrower fact (no mask, no order signal)"),
    (CH01, "Nothing in the computation knows which slot held a row",
     "review-2026-12 r13a pass 4: unbound (its flip to 'Something' passed); cut, the algebra "
     "before it says the same"),
    (CH02, "so a model cannot attach a stable meaning",
     "review-2026-12 r13a pass 6: the check shows the value changes with L, not what a model "
     "cannot do; the whole sequence gives L back (every gap is 1/L)"),
    (CH07, "A slower column separates them",
     "review-2026-12 r13c pass 5: one frequency (0.1) made a rule; pairs 25 to 31 of the page's own "
     "64-wide table keep the four near-repeats within 0.0354"),
    (CH07, "<!-- check: rotation_matrix(5, d_model).shape == (64, 64) -->",
     "review-2026-12 r13c pass 5: a check under the three constraints that held whatever they were"),
    (CH10, "non-rotation block is enough",
     "review-2026-12 r13c pass 6: a scaling such as 2I is not a rotation yet keeps every diagonal"),
    (CH10, "This is not the paper's balance.",
     "review-2026-12 r13c pass 6: the reference code's scale holds at initialisation only"),
    (CH10, "`x` is the paper-like picture",
     "review-2026-12 r13c pass 6: the reference code's scale holds at initialisation only"),
    (CH10, "== 4 * layer_weights(d, d_ff)  # every matrix",
     "review-2026-12 r13c pass 6: the line compared the totals, the comment said every matrix"),
    ("posenc/plots/rotation.py", "of the same two angles, on opposite sides of the circle",
     "review-2026-12 r13c pass 5: the figure ch07 draws with it shows mirror images across the "
     "horizontal axis (sine across, cosine up), not antipodes; its alt text was fixed in tour-3"),
    (CH16, "its base depends on the length of the input",
     "review-2026-12 r13i pass 9: transformers 5.24.0 reads max(position_ids) + 1, not the "
     "input's length: a one-token decoding step at position 6000 is not a short input to it"),
    (CH16, "It is restored when an input shorter than the trained length comes",
     "review-2026-12 r13i pass 9: a one-token input at position 6000 keeps the grown base; "
     "the reset needs max(position_ids) + 1 below the trained length"),
    (CH16, "per call, per server or per context size",
     "review-2026-12 r13i pass 9: llama.cpp decides on the context per sequence (n_ctx_seq), "
     "as the section says since p6a, not on the context size allocated"),
    (CH16, "rounds the buffer again",
     "review-2026-12 r13i pass 9: from_pretrained(dtype=bfloat16) left the buffer in float32, "
     "so the later .to rounds it for the first time"),
    (CH16, "([chapter 10](10-inside-attention.md) composes rotations)",
     "review-2026-12 r14i pass 10: chapter 10 composes no rotations; chapter 7's section "
     "'M_k is a rotation, and rotations compose' does"),
    (CH16, "it is the same at positions near 0, 1000 and 100000",
     "review-2026-12 r14i pass 10: the error of one key moves with its position (fp8: 0 to 0.008 "
     "over 256 positions); the mean over keys is what stays the same"),
    (CH16, "on a task that needs positions",
     "review-2026-12 r13i pass 9: the same 40 Adam steps take a causal layer with no position "
     "scheme below half its first loss too (5 of 5 seeds): the check could not show positions"),
    (BUGS, "For the later kernel a fix was proposed in",
     "review-2026-12 r13j pass 12: vllm#49906 (merged, '[ROCm] Fix and optimize GPT-J-style "
     "MRoPE') makes _triton_mrope_forward read is_neox_style on every platform; #49323 is open"),
    (BUGS, "The function's docstring gives these two cases",
     "review-2026-12 r13j pass 12: the quoted rule is the docstring of the inner "
     "dynamic_frequency_update; dynamic_rope_update's own docstring does not hold it"),
    (BUGS, "Phi-4-multimodal: 8 tokens past the switch",
     "review-2026-12 r13j pass 12: a 60-token prompt and 8 new tokens; only the last 4 sit "
     "past position 63 (original 64)"),
    (CH13, "which calls the C library's `expf`, `sinf` and `cosf`, they match",
     "review-2026-12 r13f pass 11: measured with glibc 2.36 only (NumPy's baseline float32 exp, sin, "
     "cos are its expf, sinf, cosf bit for bit); the page names it"),
    (CH13, "and the C library's at its baseline level",
     "review-2026-12 r13f pass 11: glibc 2.36's kernels measured; the page names them"),
    (CH13, "with the C library's `expf`, which NumPy calls",
     "review-2026-12 r13f pass 11: glibc 2.36's expf measured; the page names it"),
    (CH13, "and up to twice that with NumPy 2.4's",
     "review-2026-12 r13f pass 11: NumPy 2.4.6's AVX2 kernels reach 1.01e-7 times the position, 1.26 "
     "times the correctly rounded 8.0e-8 (position by position up to 3.28 times)"),
    ("docs/chapters/15-what-came-next.md",
     "ramp in turns: at a factor of 4 the paper's frequency is 42% below",
     "review-2026-12 r13k pass 6: 42% is d = 128, L = 4096, base 10000; the gap is 39.7% to 44.5% "
     "over d 64 to 256, L 2048 to 32768, base 1e4 to 1e6 (own NumPy of both ramps)"),
    (CH12, "the vector that belongs two positions later",
     "review-2026-12 r13m pass 8: one direction only; run the other way, two positions earlier"),
    (CH12, "M2M100, FSMT and XGLM grow their table, and",
     "review-2026-12 r13m pass 8: M2M100 and XGLM skip the growth traced with a compileable cache"),
    (CH12, "table rebuilt longer when needed",
     "review-2026-12 r13m pass 8: M2M100 skips the growth traced with a compileable cache"),
    ("docs/tour.md", "Small models [trained in this site's lab]",
     "review-2026-12 r14f pass 7: the tour's lab sentence named task and length ratio but no size; "
     "every model of past.json and start.json is width 32 with two layers"),
    ("docs/checks.md", "installs what it needs into `.venv/` on first use",
     "review-2026-12 r14f: make test also fetches TensorFlow.js and axe-core into .cache/ and, as root, "
     "chromium with apt; only the Python packages go into .venv/"),
    ("docs/sources-ledger.md", "a one-line reason and the section of this site that treats it. The verdicts",
     "review-2026-12 r14f pass 8: 20 of the 227 entries have no section yet (treated is empty)"),
    (CH04, "Keep the columns and rates; make each a sine with the same period",
     "review-2026-12 r14b pass 8: a period-2 sine is 0 at every whole position (the page: the fastest "
     "useful wave needs a period longer than 2), and the paper divides the frequency by 1.33, not 2"),
    (CH03, "# position 0; largest new entry over 1",
     "review-2026-12 r14b pass 8: the printed ratio is 0.998, under 1; the comment read as 'over 1'"),
    (CH03, "the paper's sinusoidal encoding does, at every even width",
     "review-2026-12 r14b pass 8: true of float64 tables only; cast to float32 (encode(..., "
     "dtype='float32')) every width from 10 to 1024 fails consistent offsets, spread 1.2e-7 to 1.7e-7"),
    (CH03, "and the sine-based candidates oscillate between -1 and 1",
     "review-2026-12 r14b pass 8: the four-sine panel's omega 0.01 and 0.001 columns stay within "
     "0.6 and 0.064 over positions 0 to 63"),
    (CH01, "a causal mask breaks it partly.",
     "review-2026-12 r14a pass 5: true of one layer; from two causal layers on the rows kept equal "
     "are those a causal layer with positions keeps (all 120 orders)"),
    (CH01, "the symmetry above no longer holds exactly",
     "review-2026-12 r14a pass 5: reads as 'approximately'; the page's order moves rows of one "
     "causal layer by up to 1.33 times their length"),
    (CH02, "short compared with the largest place value",
     "review-2026-12 r14a pass 7: 2048 and 5000 positions exceed 1000 and keep 20.3% and 12.5% "
     "zeros; every length below 10,000 has more than a tenth"),
    (CH14, "At twice that length both failed in each seed",
     "review-2026-12 r14g pass 8: the thresholds hold at the unseen positions 24-47 only; over "
     "the whole length-48 test the records' accuracy is 0.50-0.51 (learned), 0.51-0.63 (sinusoid)"),
    (CH11, "whose angles are computed in bfloat16 after",
     "review-2026-12 r14g pass 5: only when the positions are made in the buffer's dtype; float32 "
     "positions times a bfloat16 buffer promote to float32 angles (errors then past 0.1 from "
     "position 73, past 1 from 733, from the rounded frequencies)"),
    (CH14, "any such structure must be learned",
     "review-2026-12 r14g pass 8: the page's Exercise 3 copies the sinusoid into the table: offset "
     "structure at initialisation (diagonal spread < 1e-6), not learned"),
    ("docs/index.md", "a float64 table cast at use",
     "review-2026-12 r14e pass 5: chapter 11's module keeps no float64 table for other dtypes; each "
     "dtype's table is rounded once from float64 (a cast of a float64 tensor to 16 bits goes "
     "through float32 in PyTorch 2.13 and rounds twice)"),
    (ERRATA, "it rises again after a few steps",
     "review-2026-12 r14e pass 9: at d_model 512 the first rise is at offset 44 (6 at 64, 12 at "
     "128): not 'a few' at the widths the entry names"),
    (ERRATA, "kept them in f32.",
     "review-2026-12 r14e pass 9: OpenVINO's fixes match graph patterns; openvino#34716, #36358, "
     "#36896 (2026) report position ids still cast to f16 after #25883 and #33214"),
]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("page, phrase, finding", OLD, ids=[f"{p[-12:]}:{t[:30]}" for p, t, _ in OLD])
def test_old_wording_stays_gone(page, phrase, finding):
    assert flat(phrase) not in flat((ROOT / page).read_text()), finding


def test_every_page_naming_haviv_links_the_reference():
    """Haviv et al. (2022) is cited by name on several pages; each links references.md#haviv
    (chapter 1 named it with no link: review-2026-12 r0107 pass 1)."""
    for path in sorted((ROOT / "docs").rglob("*.md")):
        text = path.read_text()
        if "Haviv" in text and path.name != "references.md":
            assert "references.md#haviv" in text, path
