fn main() {
    console_error_panic_hook::set_once();
    // Into a root of its own, not <body>: Yew empties the element it mounts into, and <body> holds
    // the prerendered first view until the app replaces it (src/prerender.rs).
    // With a prerendered first view, the app starts after the browser has painted it.
    match rebalance_playground::prerender::app_root() {
        Some(root) => rebalance_playground::prerender::after_first_paint(move || {
            yew::Renderer::<rebalance_playground::App>::with_root(root).render();
        }),
        None => {
            yew::Renderer::<rebalance_playground::App>::new().render();
        }
    }
}
