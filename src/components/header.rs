use yew::prelude::*;

use super::{use_strings, LangSwitch};
use crate::i18n::Lang;

#[derive(PartialEq, Properties)]
pub struct HeaderProps {
    pub onlang: Callback<Lang>,
}

#[component]
pub fn Header(props: &HeaderProps) -> Html {
    let s = use_strings();
    html! {
        <header class="header">
            <div class="header-titles">
                <h1 class="header-title">{ s.app_title }</h1>
                <p class="header-tagline">{ s.tagline }</p>
            </div>
            <LangSwitch onlang={props.onlang.clone()} />
        </header>
    }
}
