/* Explorer "clock": one (sin, cos) pair as a point on the unit circle. Shifting the position by
 * k turns the point by the angle omega_i k: the 2x2 rotation behind PE(pos + k). */
(function () {
  "use strict";
  var P = window.posencExplorers;
  var S = 240, R = 96, C = S / 2;

  P.register("clock", function (root) {
    var f = P.frame(root, "One clock: a (sin, cos) pair");
    var d = P.dModelSlider(16, 128);
    var i = P.slider({ name: "i", label: "pair i", min: 0, max: 7, value: 1 });
    var pos = P.slider({ name: "pos", label: "position pos", min: 0, max: 100, value: 2 });
    var k = P.slider({ name: "k", label: "shift k", min: -50, max: 50, value: 3 });
    var s = P.baseSlider();
    f.controls.append(d.node, i.node, pos.node, k.node, s.node);

    var svg = P.svg("svg", { viewBox: "0 0 " + S + " " + S, class: "posenc-plot posenc-clock", role: "img",
                             "aria-label": "The pair (PE[pos, 2i], PE[pos, 2i+1]) = (sin, cos) on the unit circle " +
                             "and the same pair at pos + k, turned by the angle omega_i k." });
    var sm = P.summary([["omega", "ω_i"], ["angle", "turn ω_i k (radians)"],
                        ["now", "pair at pos"], ["then", "pair at pos + k"],
                        ["matrix", "block B(ω_i k) of M_k"], ["rotated", "B × (pair at pos)"]]);
    var summary = sm.node, outs = sm.outs;
    var say = P.announcer(f.body);
    var legend = P.el("p", { class: "posenc-axes" });
    legend.append("pair = (PE[·, 2i], PE[·, 2i+1]) = (sin, cos):  → sin   ↑ cos   ",
                  P.el("span", { class: "posenc-key posenc-key--a" }), " pos   ",
                  P.el("span", { class: "posenc-key posenc-key--b" }), " pos + k");
    // The legend stays with the circle: on a phone the numbers stack below both.
    var plot = P.el("div", { class: "posenc-clock-plot" });
    plot.append(svg, legend);
    var wrap = P.el("div", { class: "posenc-clock-wrap" });
    wrap.append(plot, summary);
    f.body.append(wrap);

    function pair(v) { return "(" + P.fmt(v[0], 4) + ", " + P.fmt(v[1], 4) + ")"; }

    function update() {
      var dModel = d.value();
      i.input.max = String(dModel / 2 - 1);
      if (i.value() > dModel / 2 - 1) i.input.value = String(dModel / 2 - 1);
      i.sync();
      var ii = i.value(), p = pos.value(), kk = k.value(), base = P.baseOf(s);
      var w = P.frequencies(dModel, base)[ii], phi = w * kk;
      var a = P.encode(p, dModel, base, "interleaved"), b = P.encode(p + kk, dModel, base, "interleaved");
      var now = [a[2 * ii], a[2 * ii + 1]], then = [b[2 * ii], b[2 * ii + 1]];
      var m = [[Math.cos(phi), Math.sin(phi)], [-Math.sin(phi), Math.cos(phi)]];
      var rot = [m[0][0] * now[0] + m[0][1] * now[1], m[1][0] * now[0] + m[1][1] * now[1]];

      svg.textContent = "";
      var px = function (v) { return [C + R * v[0], C - R * v[1]]; };
      svg.append(P.svg("circle", { cx: C, cy: C, r: R, class: "posenc-clock__circle" }),
                 P.svg("line", { x1: C - R - 10, x2: C + R + 10, y1: C, y2: C, class: "posenc-clock__axis" }),
                 P.svg("line", { x1: C, x2: C, y1: C - R - 10, y2: C + R + 10, class: "posenc-clock__axis" }));
      // The arc swept from pos to pos + k: the angle of (sin t, cos t) is measured clockwise from
      // the top, so the point turns clockwise for k > 0. Sample it so turns beyond 2 pi show too.
      var t0 = p * w, steps = Math.min(720, Math.max(8, Math.ceil(Math.abs(phi) * 20))), path = "";
      for (var n = 0; n <= steps; n++) {
        var t = t0 + (phi * n) / steps, q = px([0.82 * Math.sin(t), 0.82 * Math.cos(t)]);
        path += (n ? "L" : "M") + q[0].toFixed(1) + "," + q[1].toFixed(1);
      }
      svg.append(P.svg("path", { d: path, class: "posenc-clock__arc" }));
      [[now, "posenc-clock__a"], [then, "posenc-clock__b"]].forEach(function (e) {
        var q = px(e[0]);
        svg.append(P.svg("line", { x1: C, y1: C, x2: q[0], y2: q[1], class: e[1] }),
                   P.svg("circle", { cx: q[0], cy: q[1], r: 6, class: e[1] }));
      });

      P.put(outs.omega, P.sciNode(w, 4));
      outs.angle.textContent = P.fmt(phi, 4);
      outs.now.textContent = pair(now);
      outs.then.textContent = pair(then);
      outs.matrix.textContent = "[[" + P.fmt(m[0][0], 4) + ", " + P.fmt(m[0][1], 4) + "], [" +
                                P.fmt(m[1][0], 4) + ", " + P.fmt(m[1][1], 4) + "]]";
      outs.rotated.textContent = pair(rot);
      say("Pair " + ii + ", shift k " + P.fmt(kk, 0) + ": the hand turns by " + outs.angle.textContent +
          " radians, from " + outs.now.textContent + " to " + outs.then.textContent + ".");
    }
    [d, i, pos, k, s].forEach(function (c) { c.input.addEventListener("input", update); });
    update();
  });
})();
