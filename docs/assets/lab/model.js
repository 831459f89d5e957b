/* The lab's tiny Transformer (posenc.lab.model.TinyTransformer) in TensorFlow.js, for the
 * in-browser lab on chapter 10b ("Train it yourself").
 *
 * Same architecture, sizes, task, optimiser, learning rate and evaluation as posenc.lab's "past"
 * experiment (posenc.lab.experiments.PAST_BASE): pre-norm blocks (LayerNorm, multi-head causal
 * attention, two-layer GELU MLP), no dropout, d_model 32, 2 heads, 2 layers, 16 symbols, batch 32,
 * AdamW (lr 3e-3, betas 0.9/0.999, eps 1e-8, no weight decay), PyTorch's default initialisation.
 * The random numbers are this file's own (a seeded mulberry32), not PyTorch's: the same seed
 * gives the same run in one browser, not the same run as Python's seed.
 *
 * Gradients come from TensorFlow.js (tf.variableGrads); nothing here differentiates by hand.
 * Loaded by the Web Worker (worker.js) with importScripts, and by the tests, which compare the
 * forward pass with posenc.lab's on the same weights (tests/site/browser/test_lab_widget.py).
 */
(function (root) {
  "use strict";

  var SCHEMES = ["none", "sinusoid", "learned", "rope", "alibi"];
  var IGNORE = -100;
  var EVAL_SEED_OFFSET = 1000003;      // posenc.lab.run.EVAL_SEED_OFFSET
  var BASE = 10000;

  // posenc.lab.experiments.PAST_BASE: k back, trained on 24 positions, tested on 48
  var DEFAULTS = {
    scheme: "rope", k: 3, vocab: 16, d_model: 32, n_heads: 2, n_layers: 2,
    train_length: 24, test_length: 48, steps: 400, batch: 32, lr: 3e-3, eval_size: 256,
    log_every: 25, seed: 0
  };
  var LIMITS = { k: [1, 4], train_length: [1, 64], steps: [1, 3000], seed: [0, 2147483647] };

  /* ------------------------------------------------------------------ settings */

  function isInt(v) { return typeof v === "number" && isFinite(v) && Math.floor(v) === v; }

  /** The config of a run, or an Error whose message names the bad setting. */
  function checkConfig(settings) {
    var c = {}, key;
    for (key in DEFAULTS) c[key] = DEFAULTS[key];
    for (key in settings || {}) {
      if (!(key in DEFAULTS)) throw new Error("unknown setting " + key);
      c[key] = settings[key];
    }
    if (SCHEMES.indexOf(c.scheme) < 0)
      throw new Error("scheme must be one of " + SCHEMES.join(", ") + ", got " + c.scheme);
    if (!isInt(c.train_length) || c.train_length < 1)
      throw new Error("training length must be a whole number of at least 1, got " + c.train_length);
    if (c.train_length > LIMITS.train_length[1])
      throw new Error("training length must be at most " + LIMITS.train_length[1] +
                      " (the page tests at twice it), got " + c.train_length);
    if (!isInt(c.k) || c.k < LIMITS.k[0] || c.k > LIMITS.k[1])
      throw new Error("k must be a whole number from 1 to 4, got " + c.k);
    if (c.k >= c.train_length)
      throw new Error("k must be below the training length: " + c.k + " back needs at least " +
                      (c.k + 1) + " positions, got " + c.train_length);
    if (!isInt(c.steps) || c.steps < LIMITS.steps[0] || c.steps > LIMITS.steps[1])
      throw new Error("steps must be a whole number from 1 to " + LIMITS.steps[1] + ", got " + c.steps);
    if (!isInt(c.seed) || c.seed < 0 || c.seed > LIMITS.seed[1])
      throw new Error("seed must be a whole number from 0 to " + LIMITS.seed[1] + ", got " + c.seed);
    c.test_length = 2 * c.train_length;
    return c;
  }

  /* ------------------------------------------------------------------ random numbers */

  /** mulberry32: a seeded generator of floats in [0, 1). */
  function rng(seed) {
    var a = (seed >>> 0) ^ 0x9E3779B9;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function uniform(rand, n, bound) {
    var out = new Float32Array(n);
    for (var i = 0; i < n; i++) out[i] = (2 * rand() - 1) * bound;
    return out;
  }

  function normal(rand, n) {
    var out = new Float32Array(n);
    for (var i = 0; i < n; i += 2) {
      var u = 1 - rand(), v = rand();
      var r = Math.sqrt(-2 * Math.log(u));
      out[i] = r * Math.cos(2 * Math.PI * v);
      if (i + 1 < n) out[i + 1] = r * Math.sin(2 * Math.PI * v);
    }
    return out;
  }

  /* ------------------------------------------------------------------ position formulas */

  /** omega_i = base ** (-2 i / d), i = 0 .. d/2 - 1 (posenc.encoding.frequencies). */
  function frequencies(d, base) {
    base = base || BASE;
    var out = [];
    for (var i = 0; i < d / 2; i++) out.push(Math.pow(base, -2 * i / d));
    return out;
  }

  /** The paper's table, rows pos = 0 .. n-1: (sin, cos) of pos * omega_i in columns 2i, 2i+1
   *  (posenc.encoding.encode, interleaved layout). */
  function sinusoid(n, d) {
    var omega = frequencies(d), out = new Float32Array(n * d);
    for (var pos = 0; pos < n; pos++)
      for (var i = 0; i < d / 2; i++) {
        out[pos * d + 2 * i] = Math.sin(pos * omega[i]);
        out[pos * d + 2 * i + 1] = Math.cos(pos * omega[i]);
      }
    return out;
  }

  /** ALiBi's slopes 2 ** (-8 h / n), h = 1 .. n, for a power of two n (posenc.relative.alibi_slopes). */
  function alibiSlopes(n) {
    var out = [];
    for (var h = 1; h <= n; h++) out.push(Math.pow(2, -8 * h / n));
    return out;
  }

  /* ------------------------------------------------------------------ the task */

  /** "k back": tokens (size x length) uniform over the vocab, targets[p] = tokens[p - k] for
   *  p >= k, IGNORE before (posenc.lab.tasks.batch). Flat Int32Arrays, row-major. */
  function kback(rand, size, length, vocab, k) {
    var tokens = new Int32Array(size * length), targets = new Int32Array(size * length);
    for (var b = 0; b < size; b++)
      for (var p = 0; p < length; p++) {
        tokens[b * length + p] = Math.floor(rand() * vocab);
        targets[b * length + p] = p >= k ? tokens[b * length + p - k] : IGNORE;
      }
    return { tokens: tokens, targets: targets, size: size, length: length };
  }

  /** Accuracy at each position of an order-blind model that sees, at position p, its own symbol
   *  and the set of symbols before it but not their order: its best guess for the symbol k back
   *  is the most frequent of the p earlier symbols, so its accuracy is E[max count] / p over
   *  p uniform draws from the vocab (exact, by a recursion over the symbols). null for p < k. */
  function orderBlind(length, vocab, k) {
    var out = [];
    for (var p = 0; p < length; p++) out.push(p < k ? null : expectedMax(p, vocab) / p);
    return out;
  }

  var _maxCache = {};
  /** E[largest count] of n uniform draws over v symbols. */
  function expectedMax(n, v) {
    var key = n + "," + v;
    if (key in _maxCache) return _maxCache[key];
    // P(max <= m) = n! / v^n * [x^n] (sum_{j<=m} x^j / j!)^v
    var logFact = [0];
    for (var i = 1; i <= n; i++) logFact.push(logFact[i - 1] + Math.log(i));
    var cdf = function (m) {
      var poly = [1];
      for (var s = 0; s < v; s++) {
        var next = new Array(Math.min(n, poly.length - 1 + m) + 1).fill(0);
        for (var a = 0; a < poly.length; a++) {
          if (!poly[a]) continue;
          for (var j = 0; j <= m && a + j <= n; j++) next[a + j] += poly[a] * Math.exp(-logFact[j]);
        }
        poly = next;
      }
      return poly.length > n ? poly[n] * Math.exp(logFact[n] - n * Math.log(v)) : 0;
    };
    var e = 0;
    for (var m = 0; m < n; m++) e += 1 - cdf(m);
    _maxCache[key] = e;
    return e;
  }

  /* ------------------------------------------------------------------ the model */

  /** Parameters with PyTorch's default initialisation: nn.Linear U(+-1/sqrt(fan_in)) for weight
   *  and bias, nn.Embedding N(0, 1), LayerNorm ones and zeros. Linear weights are stored
   *  (in, out), the transpose of PyTorch's. All of them live in one flat variable, which the
   *  optimiser updates in one go (Adam is elementwise: the same update as one variable per
   *  tensor, in about 15 operations a step instead of some 500); unpack() gives the tensors. */
  function initParams(c, rand) {
    var d = c.d_model, layout = [], chunks = [], offset = 0;
    var add = function (name, shape, values) {
      layout.push({ name: name, shape: shape, offset: offset, size: values.length });
      chunks.push(values);
      offset += values.length;
    };
    // PyTorch draws the weight (out, in), then the bias: draw in that order, store transposed.
    // parts splits the outputs into that many matrices (the attention's q, k, v: one
    // Linear(d, 3d) in PyTorch, three (d, d) matrices here, so that no split is needed).
    var linear = function (name, fanIn, fanOut, parts) {
      var bound = 1 / Math.sqrt(fanIn), names = parts ? parts : [name];
      var w = uniform(rand, fanOut * fanIn, bound), bias = uniform(rand, fanOut, bound);
      var width = fanOut / names.length;
      names.forEach(function (n, part) {
        var t = new Float32Array(fanIn * width);
        for (var o = 0; o < width; o++)
          for (var i = 0; i < fanIn; i++) t[i * width + o] = w[(part * width + o) * fanIn + i];
        add(n + ".weight", [fanIn, width], t);
        add(n + ".bias", [width], bias.slice(part * width, (part + 1) * width));
      });
    };
    var norm = function (name) {
      add(name + ".weight", [d], new Float32Array(d).fill(1));
      add(name + ".bias", [d], new Float32Array(d));
    };
    add("token.weight", [c.vocab, d], normal(rand, c.vocab * d));
    if (c.scheme === "learned") add("pos_table.weight", [c.test_length, d], normal(rand, c.test_length * d));
    for (var l = 0; l < c.n_layers; l++) {
      var b = "blocks." + l + ".";
      norm(b + "ln1"); norm(b + "ln2");
      linear(b + "attn.qkv", d, 3 * d, [b + "attn.q", b + "attn.k", b + "attn.v"]);
      linear(b + "attn.out", d, d);
      linear(b + "mlp.0", d, 4 * d);
      linear(b + "mlp.2", 4 * d, d);
    }
    norm("ln_f");
    linear("head", d, c.vocab);
    var flat = new Float32Array(offset);
    layout.forEach(function (entry, i) { flat.set(chunks[i], entry.offset); });
    return { flat: tf.variable(tf.tensor1d(flat), true, "params"), layout: layout };
  }

  /** The named tensors of the flat parameters (one split, then views). */
  function unpack(params) {
    var parts = tf.split(params.flat, params.layout.map(function (e) { return e.size; }));
    var out = {};
    params.layout.forEach(function (e, i) { out[e.name] = tf.reshape(parts[i], e.shape); });
    return out;
  }

  function layerNorm(x, p, name) {
    var m = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.div(tf.sub(x, m.mean), tf.sqrt(tf.add(m.variance, 1e-5))), p[name + ".weight"]),
                  p[name + ".bias"]);
  }

  /** x (rows, in) times the (in, out) weight plus the bias, in one fused operation. */
  function linear(x, p, name) {
    return tf.fused.matMul({ a: x, b: p[name + ".weight"], bias: p[name + ".bias"] });
  }

  function gelu(x) {            // exact GELU, as torch.nn.GELU()
    return tf.mul(tf.mul(x, 0.5), tf.add(tf.erf(tf.mul(x, Math.SQRT1_2)), 1));
  }

  /** Constants of B sequences of length T, in the model's (B * T, d) layout: the causal mask,
   *  RoPE's cos/sin and pair swap, ALiBi's bias, the sinusoid's table. */
  function constants(c, T, B) {
    var d = c.d_model, hd = d / c.n_heads, mask = new Float32Array(T * T), i, j, b;
    for (i = 0; i < T; i++) for (j = 0; j < T; j++) mask[i * T + j] = j > i ? -1e9 : 0;
    var out = { mask: tf.tensor2d(mask, [T, T]), B: B, T: T };
    var tiled = function (row) {             // a (T, d) table repeated for each of B sequences
      var big = new Float32Array(B * T * d);
      for (b = 0; b < B; b++) big.set(row, b * T * d);
      return tf.tensor2d(big, [B * T, d]);
    };
    if (c.scheme === "rope") {
      // column j of head h rotates with omega_{(j mod hd) div 2} of the head's width; swap maps
      // each pair (a, b) to (-b, a), so that rope(x) = x * cos + (x . swap) * sin
      var omega = frequencies(hd), cos = new Float32Array(T * d), sin = new Float32Array(T * d);
      var swap = new Float32Array(d * d);
      for (i = 0; i < T; i++) for (j = 0; j < d; j++) {
        var w = omega[Math.floor((j % hd) / 2)];
        cos[i * d + j] = Math.cos(i * w);
        sin[i * d + j] = Math.sin(i * w);
      }
      for (j = 0; j < d; j += 2) { swap[(j + 1) * d + j] = -1; swap[j * d + j + 1] = 1; }
      out.cos = tiled(cos);
      out.sin = tiled(sin);
      out.swap = tf.tensor2d(swap, [d, d]);
    }
    if (c.scheme === "alibi") {
      var slopes = alibiSlopes(c.n_heads), bias = new Float32Array(c.n_heads * T * T);
      for (var h = 0; h < c.n_heads; h++)
        for (i = 0; i < T; i++) for (j = 0; j < T; j++) bias[(h * T + i) * T + j] = -slopes[h] * Math.abs(i - j);
      out.alibi = tf.tensor3d(bias, [c.n_heads, T, T]);
    }
    if (c.scheme === "sinusoid") out.table = tiled(sinusoid(T, d));
    if (c.scheme === "learned") {         // row pos of the table, by a one-hot product as tokens
      var pick = new Float32Array(B * T * c.test_length);
      for (i = 0; i < B * T; i++) pick[i * c.test_length + (i % T)] = 1;
      out.positions = tf.tensor2d(pick, [B * T, c.test_length]);
    }
    return out;
  }

  /** x: (B * T, d), every head's pairs (2i, 2i+1) rotated by pos * omega_i:
   *  (a, b) -> (a cos - b sin, a sin + b cos), posenc.lab.model._rope. */
  function rope(x, k) {
    return tf.add(tf.mul(x, k.cos), tf.mul(tf.matMul(x, k.swap), k.sin));
  }

  function attention(x, p, name, c, k) {
    var B = k.B, T = k.T, d = c.d_model, H = c.n_heads, hd = d / H;
    var q = linear(x, p, name + ".q"), key = linear(x, p, name + ".k"), v = linear(x, p, name + ".v");
    if (c.scheme === "rope") { q = rope(q, k); key = rope(key, k); }
    var heads = function (t, perm) { return tf.transpose(tf.reshape(t, [B, T, H, hd]), perm); };
    q = heads(q, [0, 2, 1, 3]); v = heads(v, [0, 2, 1, 3]);
    key = heads(key, [0, 2, 3, 1]);                                          // (B, H, hd, T)
    var scores = tf.mul(tf.matMul(q, key), 1 / Math.sqrt(hd));              // (B, H, T, T)
    if (c.scheme === "alibi") scores = tf.add(scores, k.alibi);
    scores = tf.add(scores, k.mask);
    var weights = tf.softmax(scores, -1);
    var y = tf.reshape(tf.transpose(tf.matMul(weights, v), [0, 2, 1, 3]), [B * T, d]);
    return { out: linear(y, p, name + ".out"), weights: weights };
  }

  /** Logits (B * T, vocab) of int32 tokens (B, T) (k: constants(c, T, B)); with maps, also
   *  every layer's attention weights (B, H, T, T). */
  function forward(p, c, tokens, k, maps) {
    if (p.layout) p = unpack(p);
    // one-hot times the table: the same vectors as a lookup (one product by 1, the rest by 0),
    // and its gradient needs no scatter kernel (the WebAssembly backend has none)
    var x = tf.matMul(tf.oneHot(tf.reshape(tokens, [-1]), c.vocab), p["token.weight"]);   // (B*T, d)
    if (c.scheme === "sinusoid") x = tf.add(x, k.table);
    if (c.scheme === "learned") x = tf.add(x, tf.matMul(k.positions, p["pos_table.weight"]));
    for (var l = 0; l < c.n_layers; l++) {
      var b = "blocks." + l + ".";
      var a = attention(layerNorm(x, p, b + "ln1"), p, b + "attn", c, k);
      if (maps) maps.push(a.weights);
      x = tf.add(x, a.out);
      x = tf.add(x, linear(gelu(linear(layerNorm(x, p, b + "ln2"), p, b + "mlp.0")), p, b + "mlp.2"));
    }
    return linear(layerNorm(x, p, "ln_f"), p, "head");
  }

  /** Mean cross-entropy over the positions with an answer (PyTorch's ignore_index). */
  function loss(logits, targets, mask, vocab) {
    var logp = tf.logSoftmax(logits, -1);
    var picked = tf.sum(tf.mul(logp, tf.oneHot(targets, vocab)), -1);        // (B*T,)
    return tf.neg(tf.div(tf.sum(tf.mul(picked, mask)), tf.sum(mask)));
  }

  function tensors(data) {
    var n = data.targets.length;
    var clipped = new Int32Array(n), mask = new Float32Array(n);
    for (var i = 0; i < n; i++) {
      var ok = data.targets[i] !== IGNORE;
      clipped[i] = ok ? data.targets[i] : 0;
      mask[i] = ok ? 1 : 0;
    }
    return { tokens: tf.tensor2d(data.tokens, [data.size, data.length], "int32"),
             targets: tf.tensor1d(clipped, "int32"), mask: tf.tensor1d(mask) };
  }

  /** Accuracy per position (null where no answer) and overall, on a seeded eval set. */
  function evaluate(p, c, length, data) {
    data = data || kback(rng(c.seed + EVAL_SEED_OFFSET + length), c.eval_size, length, c.vocab, c.k);
    var k = constants(c, length, data.size);
    var pred = tf.tidy(function () {
      return tf.argMax(forward(p, c, tf.tensor2d(data.tokens, [data.size, length], "int32"), k), -1);
    });
    var guess = pred.dataSync();
    pred.dispose();
    disposeAll(k);
    var right = new Array(length).fill(0), total = 0, n = 0;
    for (var b = 0; b < data.size; b++)
      for (var pos = c.k; pos < length; pos++) {
        var ok = guess[b * length + pos] === data.targets[b * length + pos] ? 1 : 0;
        right[pos] += ok; total += ok; n += 1;
      }
    var perPosition = right.map(function (r, pos) { return pos < c.k ? null : r / data.size; });
    return { accuracy: total / n, per_position: perPosition };
  }

  function disposeAll(obj) { for (var key in obj) if (obj[key] && obj[key].dispose) obj[key].dispose(); }

  /** Train a model: calls onStep(step, loss) after every step (loss read every log_every steps
   *  and at the end, else null); returns {params, curve}. shouldStop() true ends it early. */
  function train(c, onStep, shouldStop) {
    var rand = rng(c.seed);
    var params = initParams(c, rand);
    var optimizer = tf.train.adam(c.lr, 0.9, 0.999, 1e-8);
    var k = constants(c, c.train_length, c.batch);
    var data = rng(c.seed + 1);
    var curve = [], window = [];
    for (var step = 1; step <= c.steps; step++) {
      if (shouldStop && shouldStop()) break;
      var batch = tensors(kback(data, c.batch, c.train_length, c.vocab, c.k));
      var cost = optimizer.minimize(function () {
        return loss(forward(params, c, batch.tokens, k), batch.targets, batch.mask, c.vocab);
      }, true, [params.flat]);
      window.push(cost);
      disposeAll(batch);
      var logged = null;
      if (step % c.log_every === 0 || step === c.steps) {
        var sum = 0;
        for (var i = 0; i < window.length; i++) { sum += window[i].dataSync()[0]; window[i].dispose(); }
        logged = sum / window.length;
        curve.push([step, logged]);
        window = [];
      }
      if (onStep) onStep(step, logged);
    }
    window.forEach(function (t) { t.dispose(); });
    disposeAll(k);
    optimizer.dispose();
    return { params: params, curve: curve };
  }

  /** One whole run: train, then evaluate at the training length and at twice it. */
  function run(settings, onStep, shouldStop) {
    var c = checkConfig(settings), started = Date.now();
    var trained = train(c, onStep, shouldStop);
    var result = { config: c, curve: trained.curve, test: {},
                   baseline: orderBlind(c.test_length, c.vocab, c.k) };
    [c.train_length, c.test_length].forEach(function (L) { result.test[L] = evaluate(trained.params, c, L); });
    var unseen = result.test[c.test_length].per_position.slice(c.train_length);
    result.unseen = unseen.reduce(function (s, v) { return s + v; }, 0) / unseen.length;
    result.seconds = (Date.now() - started) / 1000;
    disposeAll(trained.params);
    return result;
  }

  /** Weights as plain arrays in PyTorch's layout (Linear (out, in); q, k, v as one qkv), for
   *  the tests. */
  function exportParams(params) {
    return tf.tidy(function () {
      var named = unpack(params), out = {};
      for (var name in named) {
        var t = named[name], m = /^(.*attn)\.q\.(weight|bias)$/.exec(name);
        if (/attn\.[kv]\./.test(name)) continue;
        if (m) {
          t = tf.concat(["q", "k", "v"].map(function (s) { return named[m[1] + "." + s + "." + m[2]]; }), -1);
          name = m[1] + ".qkv." + m[2];
        }
        var isLinearWeight = /\.weight$/.test(name) && t.shape.length === 2 && !/^(token|pos_table)\./.test(name);
        out[name] = (isLinearWeight ? tf.transpose(t) : t).arraySync();
      }
      return out;
    });
  }

  /** TensorFlow.js's WebAssembly backend multiplies transposed matrices on a slow path (16 ms
   *  against 0.8 ms for a 768x128 by 128x32 product here); the gradients of every product ask
   *  for transposes. This wraps the backend's BatchMatMul kernel so that it transposes its
   *  inputs with the backend's Transpose kernel first: the same products, no change to the
   *  gradients, which stay TensorFlow.js's own. Call once after tf.setBackend("wasm"). */
  function fastTransposedMatMul(backendName) {
    var matmul = tf.getKernel("BatchMatMul", backendName), transpose = tf.getKernel("Transpose", backendName);
    if (!matmul || !transpose || matmul.wrapped) return false;
    var flip = function (x, backend) {
      var r = x.shape.length, perm = [];
      for (var i = 0; i < r - 2; i++) perm.push(i);
      perm.push(r - 1, r - 2);
      return transpose.kernelFunc({ inputs: { x: x }, backend: backend, attrs: { perm: perm } });
    };
    tf.unregisterKernel("BatchMatMul", backendName);
    tf.registerKernel({
      kernelName: "BatchMatMul", backendName: backendName, setupFunc: matmul.setupFunc,
      disposeFunc: matmul.disposeFunc, wrapped: true,
      kernelFunc: function (args) {
        var a = args.inputs.a, b = args.inputs.b, attrs = args.attrs, backend = args.backend;
        if (!attrs.transposeA && !attrs.transposeB) return matmul.kernelFunc(args);
        var at = attrs.transposeA ? flip(a, backend) : a, bt = attrs.transposeB ? flip(b, backend) : b;
        var out = matmul.kernelFunc({ inputs: { a: at, b: bt }, backend: backend,
                                      attrs: { transposeA: false, transposeB: false } });
        if (at !== a) backend.disposeData(at.dataId);
        if (bt !== b) backend.disposeData(bt.dataId);
        return out;
      }
    });
    return true;
  }

  var api = {
    SCHEMES: SCHEMES, DEFAULTS: DEFAULTS, IGNORE: IGNORE, EVAL_SEED_OFFSET: EVAL_SEED_OFFSET,
    checkConfig: checkConfig, rng: rng, frequencies: frequencies, sinusoid: sinusoid,
    alibiSlopes: alibiSlopes, kback: kback, orderBlind: orderBlind, expectedMax: expectedMax,
    initParams: initParams, constants: constants, forward: forward, evaluate: evaluate,
    train: train, run: run, exportParams: exportParams, disposeAll: disposeAll, unpack: unpack,
    fastTransposedMatMul: fastTransposedMatMul
  };
  root.PosencLab = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})(typeof self !== "undefined" ? self : globalThis);
