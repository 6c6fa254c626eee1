fn main() {
    console_error_panic_hook::set_once();
    yew::Renderer::<rebalance_playground::App>::new().render();
}
