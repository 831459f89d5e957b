// The copy button of a ">>>" block copies code that runs when pasted: the ">>> " and "... "
// prompts are dropped, and so is every line without one (printed output, tracebacks).
// Material's button copies the text of the nearest [data-copy] ancestor of the code, when
// there is one, so each ">>>" block gets that attribute. Re-run after instant navigation.
(function () {
  "use strict";

  function runnable(text) {
    const kept = [];
    for (const line of text.split("\n")) {
      const prompt = /^(>>>|\.\.\.)( |$)/.exec(line);
      if (prompt) kept.push(line.slice(prompt[0].length));
    }
    return kept.join("\n").trimEnd() + "\n";
  }

  function prepare(root) {
    for (const code of root.querySelectorAll(".highlight pre > code")) {
      const text = code.textContent;
      if (!text.startsWith(">>> ")) continue;
      code.closest(".highlight").setAttribute("data-copy", runnable(text));
    }
  }

  window.posencCopy = { runnable, prepare };
  if (window.document$) window.document$.subscribe(() => prepare(document));
  else document.addEventListener("DOMContentLoaded", () => prepare(document));
})();
