/* The lab widget's Web Worker: trains one model with TensorFlow.js (WebAssembly backend) off the
 * page's thread, and posts {type: "step"}, then {type: "done"} or {type: "error"}.
 * The page cancels a run by terminating this worker. */
/* global PosencLab, tf */
"use strict";
var loaded = null;
try {
  importScripts("vendor/tf.es2017.min.js", "vendor/tf-backend-wasm.es2017.min.js", "model.js");
} catch (error) {
  loaded = "TensorFlow.js is not part of this build of the site (" + error.message + ")";
}

async function backend() {
  tf.wasm.setWasmPaths(new URL("vendor/", self.location.href).href);
  try {
    if (await tf.setBackend("wasm")) { PosencLab.fastTransposedMatMul("wasm"); return "wasm"; }
  } catch (error) { /* fall through to the plain JavaScript backend */ }
  await tf.setBackend("cpu");
  return "cpu";
}

self.onmessage = async function (event) {
  if (loaded) { self.postMessage({ type: "error", message: loaded }); return; }
  try {
    var config = PosencLab.checkConfig(event.data.settings);
    var name = await backend();
    var started = performance.now();
    var result = PosencLab.run(config, function (step, loss) {
      self.postMessage({ type: "step", step: step, steps: config.steps, loss: loss,
                         seconds: (performance.now() - started) / 1000 });
    });
    result.backend = name;
    result.tfjs = tf.version.tfjs;
    result.seconds = (performance.now() - started) / 1000;
    self.postMessage({ type: "done", result: result });
  } catch (error) {
    self.postMessage({ type: "error", message: error.message });
  }
};
