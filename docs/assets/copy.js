// The copy button of a ">>>" block copies code that runs when pasted: the ">>> " and "... "
// prompts are dropped, and so is every line without one (printed output, tracebacks). A ">>>"
// line after "..." lines gets an empty line first, and so does the end: at Python's prompt only an
// empty line ends a "for" or "def", so without it the next statement is a SyntaxError.
// Material's button copies the text of the nearest [data-copy] ancestor of the code, when
// there is one, so each ">>>" block gets that attribute. Re-run after instant navigation.
(function () {
  "use strict";

  function runnable(text) {
    const kept = [];
    let open = false;                       // the last line kept continued a statement
    for (const line of text.split("\n")) {
      const prompt = /^(>>>|\.\.\.)( |$)/.exec(line);
      if (!prompt) continue;
      if (prompt[1] === ">>>" && open) kept.push("");
      const code = line.slice(prompt[0].length);
      kept.push(code);
      open = prompt[1] === "..." && code.trim() !== "";
    }
    return kept.join("\n").trimEnd() + (open ? "\n\n" : "\n");    // a last loop runs too
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
