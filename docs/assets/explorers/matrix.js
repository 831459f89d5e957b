/* Explorer "matrix": the whole table as a heatmap, with a read-out of the cell under the
 * pointer (or under the keyboard cursor: focus the heatmap, then use the arrow keys). */
(function () {
  "use strict";
  var P = window.posencExplorers;

  /* ColorBrewer PuOr (matplotlib's "PuOr", the site's DIVERGING map): -1 orange, +1 purple. */
  var PUOR = [[127, 59, 8], [179, 88, 6], [224, 130, 20], [253, 184, 99], [254, 224, 182],
              [247, 247, 247], [216, 218, 235], [178, 171, 210], [128, 115, 172], [84, 39, 136],
              [45, 0, 75]];
  function colour(v) {
    var t = Math.max(0, Math.min(1, (v + 1) / 2)) * (PUOR.length - 1);
    var k = Math.min(PUOR.length - 2, Math.floor(t)), u = t - k;
    return PUOR[k].map(function (c, n) { return Math.round(c + u * (PUOR[k + 1][n] - c)); });
  }
  P.colour = colour;

  P.register("matrix", function (root) {
    var f = P.frame(root, "The encoding matrix");
    var n = P.slider({ name: "n", label: "positions", min: 2, max: 200, value: 50 });
    var d = P.dModelSlider(64, 256);
    var s = P.baseSlider();
    var layout = P.select("layout", "layout", ["interleaved", "concatenated"], "interleaved");
    f.controls.append(n.node, d.node, s.node, layout.node);

    var readout = P.el("p", { class: "posenc-readout", "aria-live": "polite", "data-out": "cell" });
    var canvas = P.el("canvas", {
      class: "posenc-heatmap", tabindex: "0", role: "img",
      "aria-label": "Heatmap of the encoding: positions down, dimensions across. " +
                    "Focus it and use the arrow keys to read single values.",
    });
    var axes = P.el("p", { class: "posenc-axes" });
    axes.append(P.rich("↓ position 0 … n − 1    → dimension 0 … d_model − 1"));
    var legend = P.el("div", { class: "posenc-legend", "aria-hidden": "true" });
    legend.append(P.el("span", {}, "−1"), P.el("span", { class: "posenc-legend__bar" }),
                  P.el("span", {}, "+1"));
    f.body.append(readout, canvas, axes, legend);

    var table = null, cursor = { pos: 0, dim: 0 }, shape = { n: 0, d: 0 };
    var image = document.createElement("canvas");

    function compute() {
      var dModel = d.value(), count = n.value(), base = P.baseOf(s), lay = layout.value();
      table = [];
      for (var pos = 0; pos < count; pos++) table.push(P.encode(pos, dModel, base, lay));
      shape = { n: count, d: dModel };
      canvas.style.height = Math.max(256, 2 * count) + "px";   // at least 2 px per position
      cursor.pos = Math.min(cursor.pos, count - 1);
      cursor.dim = Math.min(cursor.dim, dModel - 1);
      image.width = dModel;
      image.height = count;
      var ctx = image.getContext("2d"), data = ctx.createImageData(dModel, count);
      for (pos = 0; pos < count; pos++) {
        for (var j = 0; j < dModel; j++) {
          var c = colour(table[pos][j]), o = 4 * (pos * dModel + j);
          data.data[o] = c[0]; data.data[o + 1] = c[1]; data.data[o + 2] = c[2]; data.data[o + 3] = 255;
        }
      }
      ctx.putImageData(data, 0, 0);
      draw();
      read();
    }

    function draw() {
      var ratio = window.devicePixelRatio || 1;
      var w = Math.max(1, Math.round(canvas.clientWidth * ratio));
      var h = Math.max(1, Math.round(canvas.clientHeight * ratio));
      if (canvas.width !== w) canvas.width = w;
      if (canvas.height !== h) canvas.height = h;
      var ctx = canvas.getContext("2d");
      ctx.imageSmoothingEnabled = false;
      ctx.clearRect(0, 0, w, h);
      ctx.drawImage(image, 0, 0, w, h);
      if (document.activeElement === canvas || canvas.hasAttribute("data-hover")) {
        var cw = w / shape.d, ch = h / shape.n;
        ctx.lineWidth = Math.max(1, ratio);
        ctx.strokeStyle = "#000";
        ctx.strokeRect(cursor.dim * cw, cursor.pos * ch, cw, ch);
        ctx.strokeStyle = "#fff";
        ctx.strokeRect(cursor.dim * cw - ctx.lineWidth, cursor.pos * ch - ctx.lineWidth,
                       cw + 2 * ctx.lineWidth, ch + 2 * ctx.lineWidth);
      }
    }

    function read() {
      var dModel = shape.d, j = cursor.dim, lay = layout.value();
      var half = dModel / 2, i, fn;
      if (lay === "concatenated") { i = j % half; fn = j < half ? "sin" : "cos"; }
      else { i = j >> 1; fn = j % 2 ? "cos" : "sin"; }
      readout.textContent = "";
      readout.append("position ", P.el("b", { "data-out": "pos" }, String(cursor.pos)),
                     ", dimension ", P.el("b", { "data-out": "dim" }, String(j)),
                     " (" + fn + " of pair i = " + i + "): value ",
                     P.el("b", { "data-out": "value" }, P.fmt(table[cursor.pos][j], 4)));
    }

    // Pointer events: a mouse moving, a pen, or a finger tapping (phones have no hover).
    function point(e) {
      var r = canvas.getBoundingClientRect();
      cursor.dim = Math.min(shape.d - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * shape.d)));
      cursor.pos = Math.min(shape.n - 1, Math.max(0, Math.floor(((e.clientY - r.top) / r.height) * shape.n)));
      canvas.setAttribute("data-hover", "");
      draw();
      read();
    }
    canvas.addEventListener("pointermove", point);
    canvas.addEventListener("pointerdown", point);
    canvas.addEventListener("pointerleave", function () { canvas.removeAttribute("data-hover"); draw(); });
    canvas.addEventListener("focus", draw);
    canvas.addEventListener("blur", draw);
    canvas.addEventListener("keydown", function (e) {
      var step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
      if (!step) return;
      e.preventDefault();
      cursor.pos = Math.min(shape.n - 1, Math.max(0, cursor.pos + step[0]));
      cursor.dim = Math.min(shape.d - 1, Math.max(0, cursor.dim + step[1]));
      draw();
      read();
    });
    [n, d, s].forEach(function (c) { c.input.addEventListener("input", compute); });
    layout.input.addEventListener("change", compute);
    if (window.ResizeObserver) {
      var observer = new ResizeObserver(function () {
        if (canvas.isConnected) draw();
        else observer.disconnect();       // the page was left by instant navigation
      });
      observer.observe(canvas);
    }
    compute();
  });
})();
