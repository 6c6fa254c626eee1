//! The log reader's worker ("Import a log"), a second wasm that the release build loads on
//! demand: see `rebalance_playground::log_worker`.

fn main() {
    // Natively (a `cargo build` of every target) there is no worker to serve.
    if cfg!(target_arch = "wasm32") {
        rebalance_playground::log_worker::serve();
    }
}
