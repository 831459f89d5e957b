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

    var sm = P.summary([["dot", "PE(A) · PE(B)"], ["cosine", "cosine similarity"],
                        ["distance", "distance ‖PE(A) − PE(B)‖"]]);
    var summary = sm.node, outs = sm.outs;
    var say = P.announcer(f.body);

    var scroll = P.el("div", { class: "posenc-scroll", tabindex: "0", role: "region",
                               "aria-label": "per-dimension values" });
    var table = P.el("table", { class: "posenc-table" });
    var head = P.el("tr");
    // Short headers so the table fits a phone; the last column is the difference A − B.
    ["dim", "i", "fn", "ω_i", "A", "B", "A − B"].forEach(function (h, n) {
      var th = P.el("th", { scope: "col" });
      th.append(P.rich(h));
      if (n >= 4) th.setAttribute("aria-label", ["PE(A)", "PE(B)", "PE(A) − PE(B)"][n - 4]);
      head.append(th);
    });
    var thead = P.el("thead");
    thead.append(head);
    var tbody = P.el("tbody");
    table.append(thead, tbody);
    scroll.append(table);
    // Says how many rows there are, and that the box scrolls when some are out of sight.
    var hint = P.el("p", { class: "posenc-hint", "data-out": "rows" });
    f.body.append(summary, hint, scroll);

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
      say("Positions " + a.value() + " and " + b.value() + ", d_model " + dModel + ": dot product " +
          outs.dot.textContent + ", cosine similarity " + outs.cosine.textContent + ", distance " +
          outs.distance.textContent + ".");
      tbody.textContent = "";
      for (j = 0; j < dModel; j++) {
        var i = j >> 1;
        var row = P.el("tr", { "data-dim": j });
        [String(j), String(i), j % 2 ? "cos" : "sin", P.sciNode(omega[i], 4),
         P.fmt(pa[j], 4), P.fmt(pb[j], 4), P.fmt(pa[j] - pb[j], 4)].forEach(function (t) {
          var td = P.el("td");
          td.append(t);
          row.append(td);
        });
        tbody.append(row);
      }
      var hidden = scroll.scrollHeight > scroll.clientHeight + 1;
      hint.textContent = dModel + " rows, one per dimension" +
        (hidden ? ": scroll the table to see them all." : ".");
    }
    [a, b, d, s].forEach(function (c) { c.input.addEventListener("input", update); });
    update();
  });
})();
