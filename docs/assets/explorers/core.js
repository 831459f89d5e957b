/* posenc explorers: the shared formula, controls and mounting.
 *
 * The same formula as the Python package (posenc/encoding.py), Vaswani et al. (2017) 3.5:
 *   omega_i = base ** (-2 i / d_model),  i = 0 .. d_model/2 - 1
 *   interleaved:  PE[pos, 2i] = sin(pos omega_i),  PE[pos, 2i+1] = cos(pos omega_i)
 *   concatenated: PE[pos, i]  = sin(pos omega_i),  PE[pos, d/2+i] = cos(pos omega_i)
 * tests/site/browser/test_explorers.py drives every explorer in Chromium and compares what it shows with posenc.
 *
 * An explorer is mounted on any element <div class="posenc-explorer" data-explorer="NAME">,
 * on any page, as often as wanted; Material's instant navigation re-runs the mounting through
 * document$, and a mounted element is marked so it is never mounted twice.
 */
(function () {
  "use strict";
  var P = (window.posencExplorers = window.posencExplorers || {});
  var registry = (P.registry = P.registry || {});
  var counter = 0;

  P.BASE = 10000;

  /* omega_i for i = 0 .. d_model/2 - 1 */
  P.frequencies = function (dModel, base) {
    var out = new Float64Array(dModel / 2);
    for (var i = 0; i < out.length; i++) out[i] = Math.pow(base, (-2 * i) / dModel);
    return out;
  };

  /* Column of the sine (and cosine) of pair i in a layout. */
  P.column = function (i, fn, dModel, layout) {
    if (layout === "concatenated") return fn === "sin" ? i : dModel / 2 + i;
    return fn === "sin" ? 2 * i : 2 * i + 1;
  };

  /* The encoding vector of one position: a Float64Array of length d_model. */
  P.encode = function (pos, dModel, base, layout) {
    var omega = P.frequencies(dModel, base);
    var out = new Float64Array(dModel);
    for (var i = 0; i < omega.length; i++) {
      var theta = pos * omega[i];
      out[P.column(i, "sin", dModel, layout)] = Math.sin(theta);
      out[P.column(i, "cos", dModel, layout)] = Math.cos(theta);
    }
    return out;
  };

  P.dot = function (a, b) {
    var s = 0;
    for (var j = 0; j < a.length; j++) s += a[j] * b[j];
    return s;
  };

  /* Fixed decimals, without a "-0.000". */
  P.fmt = function (x, decimals) {
    var s = x.toFixed(decimals);
    return (/^-0\.?0*$/.test(s) ? s.slice(1) : s).replace("-", "\u2212");   /* a true minus */
  };
  /* Significant digits in exponent form for numbers that span decades (frequencies). */
  P.sci = function (x, digits) {
    return x.toExponential(digits - 1);
  };

  P.el = function (tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  /* A labelled <input type=range> with a number box beside it (type a value, or use the
   * slider); both move together. opts: {name, label, min, max, step, value, show(v) -> text}.
   * With opts.show (a value that is not the slider's own number, like base = 10^v) the value
   * is shown as text instead of a number box. Returns {node, input, value(), sync()}. */
  P.slider = function (opts) {
    var id = "posenc-x" + ++counter;
    var wrap = P.el("div", { class: "posenc-control" });
    var label = P.el("label", { for: id }, opts.label);
    var input = P.el("input", {
      type: "range", id: id, name: opts.name, "data-in": opts.name,
      min: opts.min, max: opts.max, step: opts.step || 1, value: opts.value,
    });
    var shown;
    if (opts.show) {
      shown = P.el("output", { for: id, "data-show": opts.name });
    } else {
      shown = P.el("input", {
        type: "number", "data-show": opts.name, "aria-label": opts.label + " (number)",
        min: opts.min, max: opts.max, step: opts.step || 1, value: opts.value, inputmode: "numeric",
      });
      shown.addEventListener("change", function () {
        var step = Number(input.step) || 1, lo = Number(input.min), hi = Number(input.max);
        var v = Number(shown.value);
        if (!isFinite(v)) v = Number(input.value);
        v = Math.min(hi, Math.max(lo, lo + Math.round((v - lo) / step) * step));
        input.value = String(v);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    }
    var sync = function () {
      var text = opts.show ? opts.show(Number(input.value)) : String(Number(input.value));
      if (opts.show) shown.textContent = text;
      else {
        shown.value = text;
        shown.max = input.max;
      }
      input.setAttribute("aria-valuetext", text);
    };
    input.addEventListener("input", sync);
    sync();
    wrap.append(label, input, shown);
    return { node: wrap, input: input, value: function () { return Number(input.value); }, sync: sync };
  };

  /* Numbers written as mathematics: a true minus sign, and 1.234 × 10⁻⁴ for a power of ten.
   * Returns a DocumentFragment (use P.put to place it). */
  P.minus = function (text) { return String(text).replace(/-/g, "\u2212"); };
  P.sciNode = function (x, digits) {
    var parts = x.toExponential(digits - 1).split("e");
    var frag = document.createDocumentFragment();
    var e = Number(parts[1]);
    if (e === 0) { frag.append(P.minus(parts[0])); return frag; }
    var sup = P.el("sup", {}, P.minus(String(e)));
    frag.append(P.minus(parts[0]) + " \u00d7 10", sup);
    return frag;
  };
  P.put = function (el, content) {
    el.textContent = "";
    if (typeof content === "string") el.textContent = P.minus(content);
    else el.append(content);
  };
  /* A label with a subscript: P.sub("ω", "i") is ω with subscript i. */
  P.sub = function (base, index, after) {
    var frag = document.createDocumentFragment();
    frag.append(base, P.el("sub", {}, index), after || "");
    return frag;
  };

  /* base = 10 ** v for v = 1 .. 5: exact, and spans the values worth comparing. */
  P.baseSlider = function () {
    return P.slider({
      name: "base", label: "base", min: 1, max: 5, value: 4,
      show: function (v) { return String(Math.pow(10, v)); },
    });
  };
  P.baseOf = function (s) { return Math.pow(10, s.value()); };

  P.dModelSlider = function (value, max) {
    return P.slider({ name: "d_model", label: "d_model", min: 2, max: max || 128, step: 2, value: value });
  };

  /* A labelled <select>. */
  P.select = function (name, labelText, options, value) {
    var id = "posenc-x" + ++counter;
    var wrap = P.el("div", { class: "posenc-control" });
    var sel = P.el("select", { id: id, name: name, "data-in": name });
    options.forEach(function (o) {
      var opt = P.el("option", { value: o }, o);
      if (o === value) opt.selected = true;
      sel.append(opt);
    });
    wrap.append(P.el("label", { for: id }, labelText), sel);
    return { node: wrap, input: sel, value: function () { return sel.value; } };
  };

  P.uid = function (prefix) { return prefix + ++counter; };

  /* Text with subscripts: "Σ_i cos(ω_i k)" becomes Σ<sub>i</sub> cos(ω<sub>i</sub> k). */
  P.rich = function (text) {
    var frag = document.createDocumentFragment(), re = /_([A-Za-z0-9]+)/g, last = 0, m;
    while ((m = re.exec(text))) {
      frag.append(text.slice(last, m.index), P.el("sub", {}, m[1]));
      last = re.lastIndex;
    }
    frag.append(text.slice(last));
    return frag;
  };

  /* A summary list (dt label, dd value) whose labels may carry subscripts. */
  P.summary = function (pairs) {
    var dl = P.el("dl", { class: "posenc-summary" }), outs = {};
    pairs.forEach(function (p) {
      var dt = P.el("dt");
      dt.append(P.rich(p[1]));
      outs[p[0]] = P.el("dd", { "data-out": p[0] });
      dl.append(dt, outs[p[0]]);
    });
    return { node: dl, outs: outs };
  };

  /* One sentence for screen readers, announced politely a moment after the sliders stop. */
  P.announcer = function (root) {
    var live = P.el("p", { class: "posenc-sr", "aria-live": "polite", "data-out": "said" });
    root.append(live);
    var timer = null;
    return function (text) {
      clearTimeout(timer);
      timer = setTimeout(function () { live.textContent = text; }, 400);
    };
  };

  var SVGNS = "http://www.w3.org/2000/svg";
  P.svg = function (tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  };

  /* Frame every explorer the same way: a titled box with controls, then the body. */
  P.frame = function (root, title) {
    root.classList.add("posenc-explorer--ready");
    root.textContent = "";
    var heading = P.el("p", { class: "posenc-explorer__title" }, title);
    var controls = P.el("div", { class: "posenc-controls" });
    var body = P.el("div", { class: "posenc-explorer__body" });
    root.append(heading, controls, body);
    return { controls: controls, body: body };
  };

  function mountOne(el) {
    var name = el.getAttribute("data-explorer");
    if (el.hasAttribute("data-mounted") || !registry[name]) return;
    el.setAttribute("data-mounted", "");
    try {
      registry[name](el);
    } catch (err) {
      el.removeAttribute("data-mounted");
      throw err;
    }
  }

  P.mountAll = function () {
    var els = document.querySelectorAll(".posenc-explorer[data-explorer]");
    for (var n = 0; n < els.length; n++) mountOne(els[n]);
  };

  /* Register an explorer and mount it on the current page at once (the scripts load after the
   * content); later pages reached by instant navigation are handled by document$ below. */
  P.register = function (name, mount) {
    registry[name] = mount;
    P.mountAll();
  };

  if (!P.subscribed) {
    P.subscribed = true;
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(function () { P.mountAll(); });
    } else {
      document.addEventListener("DOMContentLoaded", P.mountAll);
    }
  }
})();
