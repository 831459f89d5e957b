"""What the rules still tolerate, page by page, while pages are brought under a new rule: each
cap only shrinks (tests/harness/test_claim_words.py fails when a page has fewer left than its cap, so
the cap is lowered as sentences are bound, and a new unbound sentence fails at once).

DIRECTION_NOT_YET: per page, how many sentences (or checks) may still lack a check stating a
direction word (rises/falls, grows/shrinks, fastest/slowest, longer/shorter; harness.words).
Counted 2026-12-07 when the words joined the claim words. A sentence past the cap is flagged
like any other, so new text binds its direction words from the start."""

DIRECTION_NOT_YET: dict = {
    "01-why-positions.md": 2,
    "02-what-if-we-use-the-index.md": 3,
    "03-what-should-a-good-encoding-satisfy.md": 5,
    "04-from-digits-to-waves.md": 11,
    "07-why-pair-sine-with-cosine.md": 16,
    "08-building-the-formula.md": 17,
    "09-does-it-keep-its-promises.md": 32,
    "10-inside-attention.md": 1,
    "10b-what-does-a-trained-model-do.md": 22,
    "11-a-pytorch-module.md": 5,
    "12-variants.md": 7,
    "13-how-precise-is-the-table.md": 12,
    "14-learned-embeddings.md": 1,
    "15-what-came-next.md": 17,
    "16-positions-in-a-running-model.md": 14,
    "bugs-that-shipped.md": 17,
    "errata.md": 18,
    "index.md": 1,
    "notation.md": 2,
    "sources-ledger.md": 1,
    "tour.md": 2,
}

# SAME_NOT_YET / ORDER_NOT_YET: the same, for same/different and first/last (session 13).
SAME_NOT_YET: dict = {
    "01-why-positions.md": 6,
    "02-what-if-we-use-the-index.md": 1,
    "04-from-digits-to-waves.md": 9,
    "05-is-one-sine-enough.md": 4,
    "06-many-clocks.md": 9,
    "07-why-pair-sine-with-cosine.md": 5,
    "10-inside-attention.md": 5,
    "10b-what-does-a-trained-model-do.md": 15,
    "11-a-pytorch-module.md": 11,
    "12-variants.md": 5,
    "13-how-precise-is-the-table.md": 7,
    "15-what-came-next.md": 1,
    "16-positions-in-a-running-model.md": 11,
    "bugs-that-shipped.md": 1,
    "checks.md": 1,
    "errata.md": 12,
    "explore.md": 2,
    "run-it-yourself.md": 1,
    "sources-ledger.md": 1,
    "tour.md": 1,
}
ORDER_NOT_YET: dict = {
    "01-why-positions.md": 1,
    "02-what-if-we-use-the-index.md": 10,
    "03-what-should-a-good-encoding-satisfy.md": 1,
    "04-from-digits-to-waves.md": 1,
    "05-is-one-sine-enough.md": 5,
    "06-many-clocks.md": 13,
    "07-why-pair-sine-with-cosine.md": 2,
    "09-does-it-keep-its-promises.md": 1,
    "10-inside-attention.md": 2,
    "10b-what-does-a-trained-model-do.md": 9,
    "11-a-pytorch-module.md": 15,
    "12-variants.md": 5,
    "13-how-precise-is-the-table.md": 6,
    "15-what-came-next.md": 1,
    "16-positions-in-a-running-model.md": 18,
    "bugs-that-shipped.md": 9,
    "errata.md": 5,
    "explore.md": 1,
    "plots.md": 1,
    "references.md": 2,
    "sources-ledger.md": 1,
}
