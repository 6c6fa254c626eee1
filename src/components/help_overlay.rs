use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::use_strings;

#[derive(PartialEq, Properties)]
pub struct HelpOverlayProps {
    pub onclose: Callback<()>,
}

/// The keyboard shortcuts, in a modal dialog that takes focus and gives it back on close.
#[component]
pub fn HelpOverlay(props: &HelpOverlayProps) -> Html {
    let s = use_strings();
    let h = &s.help;
    let close_ref = use_node_ref();
    {
        let close_ref = close_ref.clone();
        use_effect_with((), move |_| {
            let previous = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element())
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            if let Some(b) = close_ref.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
            move || {
                if let Some(p) = previous {
                    let _ = p.focus();
                }
            }
        });
    }
    let onclose = props.onclose.reform(|_: MouseEvent| ());
    let onbackdrop = props.onclose.reform(|_: MouseEvent| ());
    let keys: [(&str, &str); 8] = [
        ("Space", h.play_pause),
        (". / →", h.step),
        ("a", h.add),
        ("+ / −", h.speed),
        ("Enter", h.inspect),
        ("p", h.presentation),
        ("?", h.help),
        ("Esc", h.close),
    ];
    html! {
        <div class="overlay" onclick={onbackdrop}>
            <div class="overlay-dialog" role="dialog" aria-modal="true" aria-labelledby="help-heading"
                onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <h2 id="help-heading">{ h.heading }</h2>
                <dl class="help-keys">
                    { for keys.iter().map(|(k, what)| html! {
                        <div class="help-key"><dt><kbd>{ *k }</kbd></dt><dd>{ *what }</dd></div>
                    }) }
                </dl>
                <button type="button" ref={close_ref} onclick={onclose} class="primary">{ h.dismiss }</button>
            </div>
        </div>
    }
}
