"""The doc-test harness: one reading of each page (page.py) and the rules judged on it together
by rules.py, each in its own module:

- numbers.py: every number typed in the prose is bound to the value that produces it, using
  values.py (what a page's code shows: outputs, == literals, bound names) and agreement.py (the
  check tells the number from its neighbour, restatements and twins);
- words.py: every sentence whose claim lives in a word (more/less, always/never, at most, ...)
  has a check next to it that states the word;
- vocabulary.py: which words those are (the lists, their forms, the capped classes) and how a
  sentence's or a check's words are read;
- causes.py: every sentence that names a cause is bound to a cause check, a source or a derivation;
- scope.py: a universal or family claim is checked over the domain it states;
- colons.py: a sentence ending in a colon is followed by what it promises;
- lines.py: code lines a reader sees are at most 80 characters.

not_yet.py caps, page by page, what a new rule still tolerates while pages are brought under it.
Shared by the rules: page.py's ``next_to`` (the one meaning of "next to a paragraph") and
text.py (a paragraph's sentences, its prose without code, code without strings and comments).
says.py is for the review tests in tests/: find a sentence on a page and require it exactly when
a computation says so. No rule imports another rule's private name. collect.py is the Sybil configuration that runs
pages and docstrings under pytest (the only module that needs the test tools). No environment
variable switches a rule off."""
