use yew::prelude::*;

use super::{use_strings, LangSwitch};
use crate::i18n::Lang;

#[derive(PartialEq, Properties)]
pub struct HeaderProps {
    pub onlang: Callback<Lang>,
    pub presenting: bool,
    pub onpresent: Callback<()>,
    pub onhelp: Callback<bool>,
}

#[component]
pub fn Header(props: &HeaderProps) -> Html {
    let s = use_strings();
    let onpresent = props.onpresent.reform(|_: MouseEvent| ());
    let onhelp = props.onhelp.reform(|_: MouseEvent| true);
    html! {
        <header class="header">
            <div class="header-titles">
                <h1 class="header-title">{ s.app_title }</h1>
                <p class="header-tagline">{ s.tagline }</p>
            </div>
            <div class="header-tools">
                <button type="button" class="header-button" onclick={onhelp} title={s.controls.help}
                    aria-haspopup="dialog">
                    <span aria-hidden="true">{ "⌨ ?" }</span>
                    <span class="visually-hidden">{ s.controls.help }</span>
                </button>
                <button type="button" class="header-button" onclick={onpresent}
                    aria-pressed={props.presenting.to_string()} title={s.controls.presentation_hint}>
                    { s.controls.presentation }
                </button>
                <LangSwitch onlang={props.onlang.clone()} />
            </div>
        </header>
    }
}
