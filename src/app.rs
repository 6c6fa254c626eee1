use yew::prelude::*;

use crate::components::{GroupPanel, Header};
use crate::i18n::Lang;
use crate::prefs;

/// The whole playground. It owns the language and hands it down through a context.
#[component]
pub fn App() -> Html {
    let lang = use_state(prefs::initial_lang);

    use_effect_with(*lang, |lang| prefs::apply_lang(*lang));

    let onlang = {
        let lang = lang.clone();
        Callback::from(move |next: Lang| lang.set(next))
    };

    html! {
        <ContextProvider<Lang> context={*lang}>
            <div class="app">
                <Header {onlang} />
                <main class="app-main">
                    <GroupPanel />
                </main>
            </div>
        </ContextProvider<Lang>>
    }
}
