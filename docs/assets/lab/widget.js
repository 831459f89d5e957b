/* The lab widget (chapter 10b, "Train it yourself"): the reader picks a position scheme, the task
 * "k back", the training length, steps and seed, and trains the lab's tiny Transformer in a Web
 * Worker (worker.js, TensorFlow.js). A progress bar and a live loss curve while it trains; then
 * accuracy by position at twice the training length, the training length marked, the exact
 * order-blind baseline drawn, and the lab's recorded Python runs of the same configuration
 * (docs/data/lab/past.json) beside the reader's own run.
 * Mounted on every element [data-lab-widget], again after Material's instant navigation. */
(function () {
  "use strict";
  var script = document.currentScript && document.currentScript.src;
  var HERE = script ? script.replace(/[^/]*$/, "") : "";                 // .../assets/lab/
  var SITE = HERE.replace(/assets\/lab\/$/, "");
  var SCHEMES = [["sinusoid", "sinusoid, added"], ["rope", "RoPE"], ["learned", "learned"],
                 ["alibi", "ALiBi"], ["none", "none (causal mask only)"]];
  var RECORD = { k: 3, train_length: 24, steps: 400 };   // posenc.lab.experiments.PAST_BASE
  var SVGNS = "http://www.w3.org/2000/svg";
  var recordCache = null;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    for (var key in attrs || {}) {
      if (key === "text") node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    }
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVGNS, tag);
    for (var key in attrs || {}) node.setAttribute(key, attrs[key]);
    return node;
  }

  /* ------------------------------------------------------------------ settings */

  function field(id, label, input) {
    input.id = id;
    return el("div", { "class": "lab-field" }, [el("label", { "for": id, text: label }), input]);
  }

  function numberInput(name, value, min, max) {
    return el("input", { type: "number", name: name, value: String(value), min: String(min),
                         max: String(max), step: "1", inputmode: "numeric" });
  }

  /** The settings typed in, or an error message naming the bad one (the worker checks again). */
  function readSettings(form) {
    var get = function (name) { return form.querySelector("[name=" + name + "]").value.trim(); };
    var whole = function (name, label) {
      var text = get(name);
      if (!/^-?\d+$/.test(text)) throw new Error(label + " must be a whole number, got \"" + text + "\"");
      return parseInt(text, 10);
    };
    var s = { scheme: get("scheme"), k: whole("k", "k"), train_length: whole("train_length", "Training length"),
              steps: whole("steps", "Steps"), seed: whole("seed", "Seed") };
    if (s.train_length < 1) throw new Error("Training length must be at least 1, got " + s.train_length);
    if (s.train_length > 64) throw new Error("Training length must be at most 64, got " + s.train_length);
    if (s.k >= s.train_length)
      throw new Error("k must be below the training length: \"" + s.k + " back\" needs at least " +
                      (s.k + 1) + " positions, got a training length of " + s.train_length);
    if (s.steps < 1 || s.steps > 3000) throw new Error("Steps must be from 1 to 3000, got " + s.steps);
    if (s.seed < 0) throw new Error("Seed must be 0 or more, got " + s.seed);
    return s;
  }

  /* ------------------------------------------------------------------ charts */

  var W = 600, H = 220, PAD = { l: 44, r: 10, t: 10, b: 34 };
  // the drawing's width in CSS pixels, so that its text keeps its size on a phone
  function fit(box) {
    var width = box.parentNode ? box.parentNode.clientWidth - 30 : 600;   // less the padding
    W = Math.round(Math.max(280, Math.min(900, width || 600)));
  }

  function chart(title, xLabel, yLabel) {
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": title,
                            "class": "lab-chart", preserveAspectRatio: "xMidYMid meet" });
    root.appendChild(svg("rect", { x: PAD.l, y: PAD.t, width: W - PAD.l - PAD.r,
                                   height: H - PAD.t - PAD.b, "class": "lab-frame" }));
    var xl = svg("text", { x: (W + PAD.l) / 2, y: H - 4, "class": "lab-axis", "text-anchor": "middle" });
    xl.textContent = xLabel;
    var yl = svg("text", { x: 12, y: (H - PAD.b) / 2, "class": "lab-axis", "text-anchor": "middle",
                           transform: "rotate(-90 12 " + (H - PAD.b) / 2 + ")" });
    yl.textContent = yLabel;
    root.appendChild(xl); root.appendChild(yl);
    return root;
  }

  function scale(x0, x1, y0, y1) {
    return {
      x: function (x) { return PAD.l + (x - x0) / (x1 - x0 || 1) * (W - PAD.l - PAD.r); },
      y: function (y) { return H - PAD.b - (y - y0) / (y1 - y0 || 1) * (H - PAD.t - PAD.b); }
    };
  }

  function ticks(root, s, xs, ys, fmt) {
    xs.forEach(function (x) {
      var t = svg("text", { x: s.x(x), y: H - PAD.b + 14, "class": "lab-tick", "text-anchor": "middle" });
      t.textContent = String(x);
      root.appendChild(t);
    });
    ys.forEach(function (y) {
      var t = svg("text", { x: PAD.l - 4, y: s.y(y) + 4, "class": "lab-tick", "text-anchor": "end" });
      t.textContent = fmt ? fmt(y) : String(y);
      root.appendChild(t);
    });
  }

  function path(points, s, cls) {
    var d = "", pen = false;
    points.forEach(function (p) {
      if (p[1] === null || p[1] === undefined) { pen = false; return; }
      d += (pen ? "L" : "M") + s.x(p[0]).toFixed(1) + "," + s.y(p[1]).toFixed(1);
      pen = true;
    });
    return svg("path", { d: d, "class": cls });
  }

  function drawLoss(box, curve, steps) {
    fit(box);
    var top = Math.log(16) * 1.05;                      // chance loss: ln(vocab)
    var root = chart("Training loss of your run, by step", "step", "loss");
    var s = scale(0, steps, 0, top);
    ticks(root, s, [0, Math.round(steps / 2), steps], [0, 1, 2], null);
    root.appendChild(path(curve, s, "lab-line lab-mine"));
    box.replaceChildren(root);
  }

  function drawAccuracy(box, result, record) {
    fit(box);
    var c = result.config, L = c.train_length, n = c.test_length;
    var root = chart("Accuracy by position at length " + n + ", your run against the order-blind " +
                     "baseline" + (record ? " and the lab's recorded runs" : "") +
                     "; the training length " + L + " is marked", "position", "accuracy");
    var s = scale(0, n - 1, 0, 1);
    ticks(root, s, [0, L, n - 1], [0, 0.5, 1], function (y) { return y.toFixed(1); });
    root.appendChild(svg("rect", { x: s.x(L - 0.5), y: PAD.t, width: s.x(n - 1) - s.x(L - 0.5),
                                   height: H - PAD.t - PAD.b, "class": "lab-unseen" }));
    root.appendChild(svg("line", { x1: s.x(L - 0.5), x2: s.x(L - 0.5), y1: PAD.t, y2: H - PAD.b,
                                   "class": "lab-mark" }));
    var label = svg("text", { x: s.x(L - 0.5) + 4, y: PAD.t + 12, "class": "lab-tick" });
    label.textContent = "training length " + L;
    root.appendChild(label);
    if (record) {
      var lo = record.low.map(function (v, p) { return [p, v]; });
      var hi = record.high.map(function (v, p) { return [p, v]; });
      root.appendChild(path(lo, s, "lab-line lab-record"));
      root.appendChild(path(hi, s, "lab-line lab-record"));
    }
    root.appendChild(path(result.baseline.map(function (v, p) { return [p, v]; }), s, "lab-line lab-baseline"));
    root.appendChild(path(result.test[n].per_position.map(function (v, p) { return [p, v]; }), s,
                          "lab-line lab-mine"));
    box.replaceChildren(root);
  }

  /* ------------------------------------------------------------------ the lab's record */

  function loadRecord() {
    if (!recordCache)
      recordCache = fetch(SITE + "data/lab/past.json").then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      });
    return recordCache;
  }

  /** The lab's runs of the same configuration: lowest and highest accuracy over its seeds at
   *  each position of length 48, and each seed's mean over the unseen positions; null when the
   *  lab recorded no such configuration. */
  function matchRecord(record, c) {
    var runs = record.runs && record.runs[c.scheme];
    var conf = record.configs && record.configs[c.scheme];
    if (!runs || !conf || conf.k !== c.k || conf.train_lengths[0] !== c.train_length ||
        conf.steps !== c.steps || conf.test_lengths.indexOf(c.test_length) < 0) return null;
    var per = runs.map(function (m) { return m.test[String(c.test_length)].per_position; });
    var pick = function (f) {
      return per[0].map(function (_, p) {
        return per[0][p] === null ? null : f.apply(null, per.map(function (row) { return row[p]; }));
      });
    };
    var unseen = per.map(function (row) {
      var part = row.slice(c.train_length);
      return part.reduce(function (a, b) { return a + b; }, 0) / part.length;
    });
    var trained = runs.map(function (m) { return m.test[String(c.train_length)].accuracy; });
    return { low: pick(Math.min), high: pick(Math.max), unseen: unseen, trained: trained,
             seeds: record.seeds, environment: record.environment };
  }

  /* ------------------------------------------------------------------ one widget */

  function mount(root) {
    if (root.dataset.mounted) return;
    root.dataset.mounted = "1";
    var uid = "lab" + Math.random().toString(36).slice(2, 8);
    var scheme = el("select", { name: "scheme" },
                    SCHEMES.map(function (s) { return el("option", { value: s[0], text: s[1] }); }));
    scheme.value = root.dataset.scheme || "rope";
    var k = el("select", { name: "k" }, [1, 2, 3, 4].map(function (v) {
      return el("option", { value: String(v), text: v + " back" });
    }));
    k.value = "3";
    // novalidate: the page's own messages name the bad setting (the browser's bubble would not)
    var form = el("form", { "class": "lab-form", novalidate: "" }, [
      field(uid + "-scheme", "Position scheme", scheme),
      field(uid + "-k", "Task", k),
      field(uid + "-len", "Training length", numberInput("train_length", 24, 1, 64)),
      field(uid + "-steps", "Steps", numberInput("steps", 400, 1, 3000)),
      field(uid + "-seed", "Seed", numberInput("seed", 0, 0, 2147483647))
    ]);
    var train = el("button", { type: "submit", "class": "md-button md-button--primary lab-train", text: "Train" });
    var cancel = el("button", { type: "button", "class": "md-button lab-cancel", text: "Cancel", disabled: "" });
    form.appendChild(el("div", { "class": "lab-buttons" }, [train, cancel]));
    var progress = el("progress", { "class": "lab-progress", max: "1", value: "0", id: uid + "-progress",
                                    "aria-label": "Training progress" });
    var status = el("p", { "class": "lab-status", role: "status", "aria-live": "polite",
                           text: "Press Train: the model trains in this page, in your browser." });
    var error = el("p", { "class": "lab-error", role: "alert" });
    var loss = el("figure", { "class": "lab-figure lab-loss" });
    var acc = el("figure", { "class": "lab-figure lab-accuracy" });
    var legend = el("p", { "class": "lab-legend" });
    var table = el("div", { "class": "lab-table" });
    root.replaceChildren(form, progress, status, error, loss, acc, legend, table);

    var worker = null, curve = [];
    function stop(message) {
      if (worker) { worker.terminate(); worker = null; }
      train.disabled = false;
      cancel.disabled = true;
      if (message !== undefined) status.textContent = message;
    }
    cancel.addEventListener("click", function () {
      stop("Cancelled. Nothing was kept; press Train to start again.");
      progress.value = 0;
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      error.textContent = "";
      var settings;
      try { settings = readSettings(form); } catch (e) { error.textContent = e.message; return; }
      stop();
      curve = [];
      loss.replaceChildren(); acc.replaceChildren(); legend.textContent = ""; table.replaceChildren();
      progress.max = settings.steps;
      progress.value = 0;
      train.disabled = true;
      cancel.disabled = false;
      status.textContent = "Starting TensorFlow.js…";
      worker = new Worker(HERE + "worker.js");
      worker.onerror = function (e) { error.textContent = "The worker failed: " + (e.message || "see the console"); stop(""); };
      worker.onmessage = function (msg) {
        var m = msg.data;
        if (m.type === "step") {
          progress.value = m.step;
          if (m.loss !== null) { curve.push([m.step, m.loss]); drawLoss(loss, curve, m.steps); }
          status.textContent = "Training: step " + m.step + " of " + m.steps + ", " + m.seconds.toFixed(1) +
            " s" + (m.loss !== null ? ", loss " + m.loss.toFixed(3) : "") + (m.step === m.steps ? "; evaluating…" : "");
        } else if (m.type === "error") {
          error.textContent = m.message;
          stop("");
        } else if (m.type === "done") {
          stop("Done in " + m.result.seconds.toFixed(1) + " s in this browser (TensorFlow.js " +
               m.result.tfjs + ", " + m.result.backend + " backend).");
          root.dataset.seconds = m.result.seconds.toFixed(2);
          root.lastResult = m.result;
          show(m.result);
        }
      };
      worker.postMessage({ settings: settings });
    });

    function show(result) {
      var c = result.config;
      drawAccuracy(acc, result, null);
      var mine = result.test[c.test_length].per_position, unseen = result.unseen;
      var base = result.baseline.slice(c.train_length), baseUnseen = base.reduce(function (a, b) { return a + b; }, 0) / base.length;
      var rows = [["", "accuracy at the training length " + c.train_length, "accuracy at unseen positions " +
                   c.train_length + "-" + (c.test_length - 1)],
                  ["Your run (this browser, seed " + c.seed + ")", result.test[c.train_length].accuracy.toFixed(3), unseen.toFixed(3)],
                  ["Order-blind baseline (exact)", "", baseUnseen.toFixed(3)]];
      var render = function (record) {
        var t = el("table", {}, []), head = true;
        var all = rows.slice();
        if (record) {
          var range = function (xs) {
            return Math.min.apply(null, xs).toFixed(3) + " to " + Math.max.apply(null, xs).toFixed(3);
          };
          all.push(["The lab's recorded runs (Python, PyTorch, " + record.seeds.length + " seeds)",
                    range(record.trained), range(record.unseen)]);
        }
        all.forEach(function (r) {
          t.appendChild(el("tr", {}, r.map(function (v, i) {
            return el(head || i === 0 ? "th" : "td", head ? { scope: "col", text: v } : i === 0 ? { scope: "row", text: v } : { text: v });
          })));
          head = false;
        });
        table.replaceChildren(t);
        legend.textContent = "Solid: your run. Dashed: the order-blind baseline. " +
          (record ? "Thin: lowest and highest accuracy at each position over the lab's " + record.seeds.length +
                    " recorded seeds (" + record.environment.date + "). " :
                    "The lab recorded no run with these settings (it records " + RECORD.k + " back, training length " +
                    RECORD.train_length + ", " + RECORD.steps + " steps). ") +
          "Shaded: positions past the training length.";
        drawAccuracy(acc, result, record);
      };
      render(null);
      if (c.k === RECORD.k && c.train_length === RECORD.train_length && c.steps === RECORD.steps) {
        loadRecord().then(function (record) { render(matchRecord(record, c)); },
                          function () { render(null); });
      }
    }
  }

  function mountAll() {
    var roots = document.querySelectorAll("[data-lab-widget]");
    for (var i = 0; i < roots.length; i++) mount(roots[i]);
  }
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(mountAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
  else mountAll();
})();
