"""What the threads cited on docs/bugs-that-shipped.md say, as read by the December 2026 review
(reviews/2026-12/rbugs.md), held against the page.

The page's numbers are checked by its own blocks; its attributions are not. This file records,
for the threads the review read, the thread's title and kind (issue or pull request), which thread
first reports each bug, and what a thread is about where the page names it in passing. A quoted
title on the page must be the recorded title, or an excerpt recorded as faithful (one that keeps
the title's scope), so a trimmed quote that drops a qualifier fails.
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "bugs-that-shipped.md"

# thread: (kind, title as on GitHub without a leading [tag], excerpts judged faithful)
THREADS = {
    "huggingface/transformers#25681": ("issues", "LlamaRotaryEmbedding (wrong cache value when "
                                       "casting model to float16/bfloat16)", ()),
    "huggingface/transformers#29285": ("pull", "RoPE loses precision for Llama / Gemma + Gemma "
                                       "logits.float()", ()),
    "huggingface/transformers#25306": ("issues", "\"Dynamic\" Issue in LlamaDynamicNTKScaling"
                                       "RotaryEmbedding - Long context inference will impact "
                                       "short context inference.",
                                       ("long context inference will impact short context "
                                        "inference",)),
    "huggingface/transformers#46624": ("pull", "Fix dynamic RoPE not resetting inv_freq when "
                                       "layer_type is None", ()),
    "vllm-project/vllm#41236": ("issues", "Dynamic NTK RoPE scaling is wrong", ()),
    "huggingface/transformers#38224": ("issues", "YaRN: factor is not effective with "
                                       "original_max_position_embeddings", ()),
    "ml-explore/mlx#343": ("issues", "alibi error if log2(num_heads) is not an integer", ()),
    "vllm-project/vllm#941": ("pull", "Implement RoPE for GPT-J", ()),
    "lucidrains/rotary-embedding-torch#11": ("issues", "Bug in cache", ()),
    "vllm-project/vllm#590": ("issues", "GPTJ output not consistent with that of transformers", ()),
    "vllm-project/vllm#747": ("issues", "Maybe Wrong implementation of AttentionWithRoPE for GPTJ "
                              "and GPT-NeoX?", ()),
    "lyogavin/airllm#368": ("issues", "MLX Llama path ignores `rope_theta` from the model config "
                            "(falls back to 10000), corrupting all Llama 3.x output", ()),
    "lyogavin/airllm#369": ("pull", "Carry rope_theta from the config in the MLX Llama path "
                            "(fixes #368)", ()),
    "mlfoundations/open_lm#5": ("pull", "Positional embedding xformers fix", ()),
    "vllm-project/vllm#56446": ("pull", "Align vLLM YaRN with Transformers and stop re-scaling "
                                "max_model_len", ()),
    "vllm-project/vllm#49906": ("pull", "Fix and optimize GPT-J-style MRoPE", ()),
}

# Merge dates: the stored threads of these pull requests show when each was opened, not when it
# was merged (review-2026-12 p3a pass 3), so the page names no merge month for them.
MERGE_DATE_UNSEEN = ("ggml-org/llama.cpp#8676", "unslothai/unsloth#6197", "vllm-project/vllm#41277",
                     "vllm-project/vllm#941", "huggingface/transformers#33129",
                     "vllm-project/vllm#27431", "vllm-project/vllm#56446")
MONTH = re.compile(r"\b(January|February|March|April|May|June|July|August|September|October|"
                   r"November|December)\s+\d{4}")

# entry anchor: the thread that reports the bug, cited first in the entry's **Reported.**
# (vllm#747 argues about the partial rotary width and vllm#941 names the pairing; airllm#369 is
# the pull request that fixes airllm#368)
FIRST_REPORT = {
    "gptj-pairing": "vllm-project/vllm#590",
    "rope-theta-ignored": "lyogavin/airllm#368",
}

# thread: a word the sentence that cites it must contain (vllm#49290 is MRotaryEmbedding's Triton
# kernel, reported for GLM-OCR, not GPT-J itself)
ABOUT = {"vllm-project/vllm#49290": "GLM-OCR",
         # vllm#52665's stored thread shows its title ("Dynamic NTK corrupts RoPE cache when served
         # length is below training length"); the NaN outputs and the numbers 512, -0.5 are in the
         # proposed fix vllm#52675 (review-2026-12 p4b pass 4)
         "vllm-project/vllm#52665": "corrupt",
         # vllm#48621 has two proposed fixes opened 2026-07-14: #48623 (closed unmerged) and the
         # reporter's #48629 (open); naming one as "its proposed fix" hid the open one
         # (review-2026-12 p8a pass 8)
         "vllm-project/vllm#48623": "vllm-project/vllm#48629",
         # vllm#49906 (merged; "Honor the existing adjacent-pair MRoPE setting instead of
         # hardcoding NeoX pairing") fixed the kernel of vllm#49290: the stored vLLM mrope.py
         # branches on is_neox_style in _triton_mrope_forward on every platform, while the fix
         # proposed first, vllm#49323, is still open (review-2026-12 r13j pass 12)
         "vllm-project/vllm#49906": "merged",
         # vllm#41277's fix scales the base by the served length over the trained one (its
         # description: "the extended sequence length divided by the training sequence length";
         # vllm#52675: "the served `max_position_embeddings`"), the longest length the server
         # takes; the flip "shortest" passed every check (review-2026-12 r13j pass 12)
         "vllm-project/vllm#41277": "the longest length the server is configured for",
         # vllm#27431 ("decide short vs long based on max_model_len", "choosing short vs long RoPE
         # factors at init time based on `max_model_len`"): past the original length, the long
         # list for every request; the flip "short factors" passed every check (r13j pass 12)
         "vllm-project/vllm#27431": "uses the long factors for all requests",
         # gpt-neox#1003's reproducer computes the table with inv_freq.half(): float16, 1044.2678
         # -> 1045 (in bfloat16 the numbers near 1044 are 8 apart); the flip "bfloat16" passed
         "EleutherAI/gpt-neox#1003": "when computed in float16",
         # pie#602: transformers' Qwen3-Next, mlx-lm and llama.cpp use theta^(-2i/rotary_dim) and
         # pairs (i, i + rotary_dim/2); the flip "head width" passed (r13j pass 12)
         "pie-project/pie#602": "use the rotary width in both places",
         # llama.cpp#24823: "short sequences silently use long-context RoPE factors when the
         # allocated context exceeds original_max_position_embeddings"; the flip "short factors"
         # passed (r13j pass 12)
         "ggml-org/llama.cpp#24823": "short sequences get the long factors once the allocated"}

LINK = re.compile(r"\[(?P<thread>[\w.-]+/[\w.-]+#\d+)\]\((?P<url>https://github\.com/[^)]+)\)"
                  r"\s*\(\"(?P<quote>[^\"]+)\"")


def test_quoted_titles_are_the_recorded_titles():
    text = PAGE.read_text()
    seen = 0
    for m in LINK.finditer(text):
        thread, quote = m.group("thread"), " ".join(m.group("quote").split())
        if thread not in THREADS:
            continue
        kind, title, faithful = THREADS[thread]
        seen += 1
        assert quote == title or quote in faithful, (thread, quote, title)
    assert seen >= 8, seen


def test_links_point_at_the_recorded_kind_of_thread():
    for m in LINK.finditer(PAGE.read_text()):
        if m.group("thread") in THREADS:
            assert f"/{THREADS[m.group('thread')][0]}/" in m.group("url"), m.group(0)
    for thread, (kind, _, _) in THREADS.items():
        number = thread.split("#")[1]
        repo = re.escape(thread.split("#")[0])
        for url in re.findall(rf"https://github\.com/{repo}/\w+/{number}\b", PAGE.read_text()):
            assert f"/{kind}/" in url, url


def test_each_entry_cites_its_report_first():
    text = PAGE.read_text()
    for anchor, thread in FIRST_REPORT.items():
        entry = text.split("{#" + anchor + "}", 1)[1]
        reported = entry.split("**Reported.**", 1)[1].split("**", 1)[0]
        first = re.search(r"[\w.-]+/[\w.-]+#\d+", reported).group(0)
        assert first == thread, (anchor, first, thread)


def test_a_thread_named_in_passing_is_named_for_what_it_is_about():
    sentences = re.split(r"(?<=[.;])\s", PAGE.read_text().replace("\n", " "))
    for thread, word in ABOUT.items():
        citing = [s for s in sentences if thread in s]
        assert citing and all(word in s for s in citing), (thread, citing)


def test_no_merge_month_where_the_thread_does_not_show_one():
    """A sentence citing one of these pull requests states no month: the month it would state is
    the opening date, not the merge date."""
    sentences = re.split(r"(?<=[.;])\s", PAGE.read_text().replace("\n", " "))
    for thread in MERGE_DATE_UNSEEN:
        repo, number = thread.split("#")
        short = repo.split("/")[1] + "#" + number
        for s in sentences:
            if (thread in s or short in s) and "merged" in s:
                assert not MONTH.search(s), (thread, s)


def test_head_axis_mechanism_is_not_the_offset_section():
    """The head-axis entry's Mechanism once pointed at chapter 16's section on the decoding offset,
    which says nothing about rotating along the axis of heads (review-2026-12 p8a pass 8)."""
    entry = PAGE.read_text().split("{#head-axis}", 1)[1].split("\n## ", 1)[0]
    mechanism = entry.split("**Mechanism:**", 1)[1].split("**Fix.**", 1)[0]
    assert "incremental-decoding-and-the-position-offset" not in mechanism, mechanism


def test_vllm_side_of_the_mscale_entry_names_the_merged_fix():
    """vllm#56446 (merged; its description: "vLLM now honours `mscale`/`mscale_all_dim`") made
    vLLM's generic YaRN take the ratio of the two fields, as transformers does; the stored vLLM
    source (yarn_scaling_rope.py, get_rope's "yarn" branch) reads both. The page said "vLLM: none,
    the issue is open" because vllm#48621 is still open (review-2026-12 p10a pass 10)."""
    text = PAGE.read_text()
    entry = text.split("{#yarn-mscale}", 1)[1].split("\n## ", 1)[0]
    fix = entry.split("**Fix.**", 1)[1].split("ExLlamaV3", 1)[0]
    assert "vllm-project/vllm#56446" in fix and "none" not in fix, fix
    row = [line for line in text.splitlines() if "(#yarn-mscale)" in line][0]
    assert "vllm#56446" in row.split("|")[3], row


def test_the_later_gpt_j_kernel_names_its_merged_fix():
    """The GPT-J entry's Fix said only that a fix "was proposed" (vllm#49323, open) for the
    MRotaryEmbedding kernel of vllm#49290; vllm#49906 is merged and the kernel now
    reads the pairing flag (review-2026-12 r13j pass 12)."""
    entry = PAGE.read_text().split("{#gptj-pairing}", 1)[1].split("\n## ", 1)[0]
    fix = entry.split("**Fix.**", 1)[1].split("**In transformers", 1)[0]
    assert "vllm-project/vllm#49906" in fix and "proposed" not in fix, fix


# ExLlamaV3's tags, read in its repository (git tag --contains; review-2026-12 r13j pass 12): the
# regression commit 78b319e ("Fix attn_factor when mscale and mscale_all_dim are present") is first
# in v1.0.0, as exllamav3#259 says ("Present in v1.0.0, v1.1.0, v1.2.0, v1.2.1"); the fix 65e724c
# is first in v1.3.0 (then v1.4.0, v1.4.1). The flips "v1.2.0" and "v1.2.1" passed every check.
EXLLAMAV3_FIRST_TAG = {"78b319e": "v1.0.0", "65e724c": "v1.3.0"}


def test_exllamav3_releases_are_the_first_tags_that_carry_the_commits():
    text = PAGE.read_text()
    entry = " ".join(text.split("{#yarn-mscale}", 1)[1].split("\n## ", 1)[0].split())
    assert f"from a commit of its {EXLLAMAV3_FIRST_TAG['78b319e']} on" in entry, entry[:600]
    assert f"first in its {EXLLAMAV3_FIRST_TAG['65e724c']}" in entry, entry[:1600]
    row = [line for line in text.splitlines() if "(#yarn-mscale)" in line][0]
    assert f"65e724c ({EXLLAMAV3_FIRST_TAG['65e724c']})" in row, row


# The month each pull request was opened, as its stored thread shows (review-2026-12 r13j pass 12:
# transformers#28380 2024-01-07, mlx#3071 2026-01-27, pie#603 2026-09-16, vllm#9503 2024-10-18).
# The flip "January 2024" -> "January 2025" for transformers#28380 passed every check.
OPENED = {"huggingface/transformers#28380": "January 2024", "ml-explore/mlx#3071": "January 2026",
          "pie-project/pie#603": "September 2026", "vllm-project/vllm#9503": "October 2024"}


def test_each_opening_month_is_the_one_the_thread_shows():
    text = " ".join(PAGE.read_text().split())
    for thread, month in OPENED.items():
        found = re.findall(rf"{re.escape(thread)}\]\([^)]*\),?\s*\(?opened in\s+(\w+\s+\d{{4}})",
                           text)
        assert found == [month], (thread, found)


# Passages the page quotes, as the threads (and ExLlamaV3's commit 65e724c) word them, read by
# review-2026-12 r13j pass 12; whitespace-normalised. A quote changed on the page (the flip
# "29K" -> "39K" in unsloth#6197's passed every check) fails here.
QUOTED = {
    "unslothai/unsloth#2405": ("around ~50K tokens",
                               "The output is just some tokens with a repeated pattern"),
    "unslothai/unsloth#6197": ("Unscaled rope at theta 500000 holds up to roughly 29K tokens and "
                               "then collapses",),
    "huggingface/transformers#29285": ("when one uses bfloat16, the RoPE embeddings get autocast "
                                       "to bfloat16",),
    "vllm-project/vllm#41236": ("the formula becomes `(α * α) - (α - 1)`, which is a constant "
                                "that is completely independent of the sequence length",),
    "vllm-project/vllm#48621": ("Generic YaRN ignores `mscale` and `mscale_all_dim`. With "
                                "`factor=16`, `mscale=1`, and `mscale_all_dim=1`, Transformers "
                                "returns `attention_factor=1.0`",),
    "turboderp-org/exllamav3#259": ("`attn_factor` is computed as `1.0` instead of "
                                    "`0.1 * ln(factor) + 1.0`",),
    "exllamav3@65e724c": ("Make Deepseek mscale+mscale_all_dim semantics opt-in per architecture",
                          "as HF transformers does",
                          "silently drops the YaRN attention factor"),
    "pie-project/pie#602": ("the first `rotary_dim/2` pairs of each head with frequencies "
                            "`theta^(-2i/head_dim)` and pairs `(i, i + head_dim/2)`",),
    "pie-project/pie#603": ("frequencies and pair offset now come from the rotary width",),
    "huggingface/transformers#33129": ("When `input < original_max_position_embeddings && input "
                                       "tokens + generation tokens > "
                                       "original_max_position_embeddings`, the output often "
                                       "becomes garbled",),
    "vllm-project/vllm#27414": ("after the LongRoPE transition point from short factor to long "
                                "factor",),
}


def test_quoted_passages_are_the_threads_words():
    text = " ".join(PAGE.read_text().split())
    for source, passages in QUOTED.items():
        for passage in passages:
            assert f'"{passage}' in text or f"{passage}\"" in text, (source, passage)
    assert text.count("roughly 29K tokens") == 2    # the quote and the sentence that repeats it


# The state of each thread where the page states one, as the stored threads showed it to
# review-2026-12 r13j pass 12 (the page: "Threads were read in November 2026"). Each pattern is
# the citation followed by the state the page gives it; a flipped state fails here.
STATES = {
    "vllm-project/vllm#52675": r"vllm#52675\]\([^)]*\), open\)",
    "vllm-project/vllm#48621": r"vllm#48621\]\([^)]*\) \(open\)",
    "vllm-project/vllm#48623": r"vllm#48623\]\([^)]*\), closed unmerged",
    "vllm-project/vllm#48629": r"vllm#48629\]\([^)]*\), open\.",
    "turboderp-org/exllamav3#259": r"exllamav3#259\]\([^)]*\) \(closed\)",
    "facebookresearch/xformers#841": r"xFormers: none, the issue is open\.",
    "lyogavin/airllm#369": r"lyogavin/airllm#369, is open\.",
    "ggml-org/llama.cpp#24875": (r"llama\.cpp#24823 closed, the proposed "
                                 r"\[ggml-org/llama\.cpp#24875\]\([^)]*\) closed\)"),
    "huggingface/transformers#40320": (r"transformers#40320\]\([^)]*\),\s+named in the thread in "
                                       r"August 2025"),
}


def test_each_thread_state_is_the_one_read():
    text = " ".join(PAGE.read_text().split())
    for thread, pattern in STATES.items():
        assert len(re.findall(pattern, text)) == 1, (thread, pattern)
