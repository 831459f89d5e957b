/* Explorer "offset": PE(ref) · PE(ref + k) against k. It equals sum_i cos(omega_i k) for every
 * reference position, so the curve does not move when ref changes, and it is even in k. */
(function () {
  "use strict";
  var P = window.posencExplorers;
  var K = 50, W = 600, H = 280, M = { l: 76, r: 12, t: 12, b: 60 };

  P.register("offset", function (root) {
    var f = P.frame(root, "Dot product against offset");
    var ref = P.slider({ name: "ref", label: "reference position", min: 0, max: 1000, value: 100 });
    var d = P.dModelSlider(64, 256);
    var s = P.baseSlider();
    var k = P.slider({ name: "k", label: "offset k", min: -K, max: K, value: 5 });
    f.controls.append(ref.node, d.node, s.node, k.node);

    var svg = P.svg("svg", { viewBox: "0 0 " + W + " " + H, class: "posenc-plot", role: "img",
                             "aria-label": "PE(ref)·PE(ref+k) against k from -" + K + " to " + K +
                             ": the dots for the chosen reference lie on the curve of the sum of cos(omega_i k), " +
                             "which is the same for every reference and symmetric about k = 0." });
    var sm = P.summary([["plus", "PE(ref) · PE(ref + k)"], ["minus", "PE(ref) · PE(ref − k)"],
                        ["cos", "Σ_i cos(ω_i k)"], ["gap", "largest gap from Σ cos over k = −50 … 50"]]);
    var summary = sm.node, outs = sm.outs;
    var say = P.announcer(f.body);
    var legend = P.el("p", { class: "posenc-axes" });
    legend.append(P.el("span", { class: "posenc-key posenc-key--line" }), " ",
                  P.rich("Σ_i cos(ω_i k), the same for every ref"), "   ",
                  P.el("span", { class: "posenc-key posenc-key--dot" }), " PE(ref) · PE(ref + k) for the chosen ref");
    f.body.append(svg, legend, summary);

    function x(kk) { return M.l + ((kk + K) / (2 * K)) * (W - M.l - M.r); }

    function update() {
      var dModel = d.value(), base = P.baseOf(s), r = ref.value(), kk = k.value();
      var omega = P.frequencies(dModel, base), top = dModel / 2;
      var y = function (v) { return M.t + ((top - v) / (2 * top)) * (H - M.t - M.b); };
      var pr = P.encode(r, dModel, base, "interleaved");
      var sumcos = function (q) {
        var t = 0;
        for (var i = 0; i < omega.length; i++) t += Math.cos(omega[i] * q);
        return t;
      };
      var line = "", dots = [], gap = 0;
      for (var q = -K; q <= K; q++) {
        var c = sumcos(q), v = P.dot(pr, P.encode(r + q, dModel, base, "interleaved"));
        gap = Math.max(gap, Math.abs(v - c));
        line += (q === -K ? "M" : "L") + x(q).toFixed(1) + "," + y(c).toFixed(1);
        dots.push([x(q), y(v)]);
      }
      svg.textContent = "";
      var g = P.svg("g", { class: "posenc-plot__axes" });
      g.append(P.svg("line", { x1: M.l, x2: W - M.r, y1: y(0), y2: y(0) }),
               P.svg("line", { x1: x(0), x2: x(0), y1: M.t, y2: H - M.b }));
      // The end ticks align inwards, so "−50" clears the y tick "−32" in the corner (390 px).
      [[-K, "−" + K, "start"], [0, "0", "middle"], [K, String(K), "end"]].forEach(function (t) {
        var label = P.svg("text", { x: x(t[0]), y: H - M.b + 20, "text-anchor": t[2] });
        label.textContent = t[1];
        g.append(label);
      });
      [[top, String(top)], [0, "0"], [-top, "−" + top]].forEach(function (t) {
        var label = P.svg("text", { x: M.l - 6, y: y(t[0]) + 4, "text-anchor": "end" });
        label.textContent = t[1];
        g.append(label);
      });
      var xl = P.svg("text", { x: (M.l + W - M.r) / 2, y: H - 8, "text-anchor": "middle",
                               class: "posenc-plot__label" });
      xl.textContent = "offset k";
      var yc = (M.t + H - M.b) / 2;
      var yl = P.svg("text", { x: 0, y: 0, "text-anchor": "middle", class: "posenc-plot__label",
                               transform: "translate(16 " + yc + ") rotate(-90)" });
      yl.textContent = "dot product";
      g.append(xl, yl);
      svg.append(g);
      svg.append(P.svg("line", { class: "posenc-plot__marker", x1: x(kk), x2: x(kk), y1: M.t, y2: H - M.b }));
      // Dots first, the line on top: the curve stays visible where every dot lies on it.
      var dg = P.svg("g", { class: "posenc-plot__dots" });
      dots.forEach(function (p) { dg.append(P.svg("circle", { cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: 3.2 })); });
      svg.append(dg);
      svg.append(P.svg("path", { d: line, class: "posenc-plot__line" }));

      outs.plus.textContent = P.fmt(P.dot(pr, P.encode(r + kk, dModel, base, "interleaved")), 4);
      outs.minus.textContent = P.fmt(P.dot(pr, P.encode(r - kk, dModel, base, "interleaved")), 4);
      outs.cos.textContent = P.fmt(sumcos(kk), 4);
      outs.gap.textContent = gap < 1e-9 ? "below 1e-9 (rounding only)" : P.sci(gap, 2);
      say("Offset k " + P.fmt(kk, 0) + ", reference " + r + ": PE(ref) · PE(ref + k) is " + outs.plus.textContent +
          ", PE(ref) · PE(ref − k) is " + outs.minus.textContent + ", the sum of cosines is " +
          outs.cos.textContent + ".");
    }
    [ref, d, s, k].forEach(function (c) { c.input.addEventListener("input", update); });
    update();
  });
})();
