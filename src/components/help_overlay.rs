use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, FocusEvent, HtmlElement, KeyboardEvent, Node};
use yew::prelude::*;

use super::use_strings;

#[derive(PartialEq, Properties)]
pub struct HelpOverlayProps {
    pub onclose: Callback<()>,
}

/// What can take focus inside the dialog.
const FOCUSABLE: &str = "button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), \
                         textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

/// The focusable elements inside `root`, in document order.
fn focusables(root: &Element) -> Vec<HtmlElement> {
    let Ok(list) = root.query_selector_all(FOCUSABLE) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.get(i))
        .filter_map(|n| n.dyn_into::<HtmlElement>().ok())
        .collect()
}

fn active_element() -> Option<Element> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
}

/// The keyboard shortcuts, in a modal dialog. It takes focus when it opens and keeps it: Tab and
/// Shift+Tab cycle through its controls, and focus that lands outside is brought back; the page's
/// shortcuts do not fire behind it. Escape closes it, and focus returns to the control that opened
/// it.
#[component]
pub fn HelpOverlay(props: &HelpOverlayProps) -> Html {
    let s = use_strings();
    let h = &s.help;
    let dialog_ref = use_node_ref();
    let close_ref = use_node_ref();
    {
        let (dialog_ref, close_ref) = (dialog_ref.clone(), close_ref.clone());
        use_effect_with((), move |_| {
            let document = web_sys::window().and_then(|w| w.document());
            let previous = active_element().and_then(|e| e.dyn_into::<HtmlElement>().ok());
            if let Some(b) = close_ref.cast::<HtmlElement>() {
                let _ = b.focus();
            }
            // Focus that escapes the dialog comes back to its first control. `Fn`, not `FnMut`:
            // giving focus back fires `focusin` again, inside the listener.
            let guard = Closure::<dyn Fn(FocusEvent)>::new(move |e: FocusEvent| {
                let Some(dialog) = dialog_ref.cast::<Element>() else {
                    return;
                };
                let target = e.target().and_then(|t| t.dyn_into::<Node>().ok());
                if !target.is_some_and(|t| dialog.contains(Some(&t))) {
                    if let Some(first) = focusables(&dialog).first() {
                        let _ = first.focus();
                    }
                }
            });
            let unguard = crate::hooks::listen(document.map(Into::into), &["focusin"], guard);
            move || {
                // The guard goes first, so that giving focus back is not undone.
                unguard();
                if let Some(p) = previous {
                    let _ = p.focus();
                }
            }
        });
    }
    let onkeydown = {
        let onclose = props.onclose.clone();
        let dialog_ref = dialog_ref.clone();
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Escape" => {
                // Handled here, so that the page's shortcuts do not see it too.
                e.prevent_default();
                e.stop_propagation();
                onclose.emit(());
            }
            "Tab" => {
                let Some(dialog) = dialog_ref.cast::<Element>() else {
                    return;
                };
                let items = focusables(&dialog);
                let (Some(first), Some(last)) = (items.first(), items.last()) else {
                    e.prevent_default();
                    return;
                };
                let active = active_element();
                let at = |x: &HtmlElement| active.as_ref() == Some(x.unchecked_ref::<Element>());
                let inside = items.iter().any(at);
                let wrap = if e.shift_key() {
                    (at(first) || !inside).then_some(last)
                } else {
                    (at(last) || !inside).then_some(first)
                };
                if let Some(to) = wrap {
                    e.prevent_default();
                    let _ = to.focus();
                }
            }
            // "?" toggles the help (the page's shortcut); every other key stays in the dialog, so
            // that the page behind does not react to it (Space and Enter still press a button).
            "?" => {}
            _ => e.stop_propagation(),
        })
    };
    let onclose = props.onclose.reform(|_: MouseEvent| ());
    let onclose_corner = props.onclose.reform(|_: MouseEvent| ());
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
                tabindex="-1" ref={dialog_ref} {onkeydown}
                onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <div class="overlay-title">
                    <h2 id="help-heading">{ h.heading }</h2>
                    <button type="button" class="overlay-close" onclick={onclose_corner}
                        aria-label={h.close_label} title={h.close_label}>
                        <span aria-hidden="true">{ "×" }</span>
                    </button>
                </div>
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
