/* Explorer "pair": two positions side by side, dimension by dimension. */
(function () {
  "use strict";
  var P = window.posencExplorers;

  P.register("pair", function (root) {
    var f = P.frame(root, "Two positions side by side");
    var a = P.slider({ name: "a", label: "position A", min: 0, max: 200, value: 3 });
    var b = P.slider({ name: "b", label: "position B", min: 0, max: 200, value: 7 });
    var d = P.dModelSlider(8, 64);
    var s = P.baseSlider();
    f.controls.append(a.node, b.node, d.node, s.node);

    var summary = P.el("dl", { class: "posenc-summary" });
    var outs = {};
    [["dot", "PE(A) · PE(B)"], ["cosine", "cosine similarity"], ["distance", "distance |PE(A) − PE(B)|"]]
      .forEach(function (pair) {
        summary.append(P.el("dt", {}, pair[1]));
        outs[pair[0]] = P.el("dd", { "data-out": pair[0] });
        summary.append(outs[pair[0]]);
      });

    var scroll = P.el("div", { class: "posenc-scroll", tabindex: "0", role: "region",
                               "aria-label": "per-dimension values" });
    var table = P.el("table", { class: "posenc-table" });
    var head = P.el("tr");
    ["dim", "pair i", "fn", "ω_i", "PE(A)", "PE(B)", "PE(A) − PE(B)"].forEach(function (h) {
      head.append(P.el("th", { scope: "col" }, h));
    });
    var thead = P.el("thead");
    thead.append(head);
    var tbody = P.el("tbody");
    table.append(thead, tbody);
    scroll.append(table);
    f.body.append(summary, scroll);

    function update() {
      var dModel = d.value(), base = P.baseOf(s);
      var omega = P.frequencies(dModel, base);
      var pa = P.encode(a.value(), dModel, base, "interleaved");
      var pb = P.encode(b.value(), dModel, base, "interleaved");
      var dot = P.dot(pa, pb), diff = 0;
      for (var j = 0; j < dModel; j++) diff += (pa[j] - pb[j]) * (pa[j] - pb[j]);
      // |PE(pos)|^2 = d_model / 2 for every pos, since sin^2 + cos^2 = 1 in each pair.
      var cosine = dot / Math.sqrt(P.dot(pa, pa) * P.dot(pb, pb));
      outs.dot.textContent = P.fmt(dot, 4);
      outs.cosine.textContent = P.fmt(cosine, 4);
      outs.distance.textContent = P.fmt(Math.sqrt(diff), 4);
      tbody.textContent = "";
      for (j = 0; j < dModel; j++) {
        var i = j >> 1;
        var row = P.el("tr", { "data-dim": j });
        [String(j), String(i), j % 2 ? "cos" : "sin", P.sci(omega[i], 4),
         P.fmt(pa[j], 4), P.fmt(pb[j], 4), P.fmt(pa[j] - pb[j], 4)].forEach(function (t) {
          row.append(P.el("td", {}, t));
        });
        tbody.append(row);
      }
    }
    [a, b, d, s].forEach(function (c) { c.input.addEventListener("input", update); });
    update();
  });
})();
