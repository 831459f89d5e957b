/* Keyboard access to wide tables: Material wraps each table in a box that scrolls sideways on a
 * narrow screen; a box that does scroll becomes focusable (arrow keys scroll it) and is named,
 * as WCAG 2.1.1 and axe-core's scrollable-region-focusable ask. Re-run after instant navigation
 * and when the window is resized. */
(function () {
  "use strict";
  function label() {
    var boxes = document.querySelectorAll(".md-typeset__scrollwrap");
    for (var n = 0; n < boxes.length; n++) {
      var box = boxes[n];
      if (box.scrollWidth > box.clientWidth + 1) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", "Table (scrolls sideways)");
      } else if (box.getAttribute("role") === "region") {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
  }
  /* Material puts each code block's buttons in an unnamed <nav>: dozens of identical
   * navigation landmarks (axe: landmark-unique). They are toolbars, not navigation. */
  function toolbars() {
    var navs = document.querySelectorAll("nav.md-code__nav:not([role])");
    for (var n = 0; n < navs.length; n++) navs[n].setAttribute("role", "none");
  }
  window.posencFocusWide = label;
  function soon() { window.requestAnimationFrame(function () { label(); toolbars(); }); }
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(soon);
  } else {
    document.addEventListener("DOMContentLoaded", soon);
  }
  window.addEventListener("resize", soon);
})();
