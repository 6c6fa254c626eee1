// Starts the log reader (src/bin/log_worker.rs, built by Trunk as log_worker.js and
// log_worker_bg.wasm) in this worker; see src/log_worker.rs. When its files cannot be loaded
// (offline before the service worker cached them, say), it says why, and the page shows it.
try {
  importScripts('./log_worker.js');
  wasm_bindgen('./log_worker_bg.wasm').catch((e) => postMessage(['failed', String((e && e.message) || e)]));
} catch (e) {
  postMessage(['failed', String((e && e.message) || e)]);
}
