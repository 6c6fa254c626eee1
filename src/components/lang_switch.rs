use yew::prelude::*;

use super::use_strings;
use crate::i18n::Lang;

#[derive(PartialEq, Properties)]
pub struct LangSwitchProps {
    pub onlang: Callback<Lang>,
}

/// Two toggle buttons, each labelled in its own language so that anyone can find theirs.
#[component]
pub fn LangSwitch(props: &LangSwitchProps) -> Html {
    let s = use_strings();
    let current = use_context::<Lang>().unwrap_or(Lang::En);
    html! {
        <div class="lang-switch" role="group" aria-label={s.language_label}>
            { for Lang::ALL.into_iter().map(|lang| {
                let onclick = props.onlang.reform(move |_: MouseEvent| lang);
                html! {
                    <button
                        type="button"
                        class={classes!("lang-switch-button", (lang == current).then_some("is-active"))}
                        lang={lang.tag()}
                        aria-pressed={(lang == current).to_string()}
                        {onclick}
                    >
                        { lang.native_name() }
                    </button>
                }
            }) }
        </div>
    }
}
