use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::sharing::explain_open_error;
use crate::state::{Alert, Change};

/// A problem with the session, at the top of the page where the user looks: a link that does not
/// open (the address bar keeps it, nothing saved is overwritten), a saved session the page could
/// not read (nothing is overwritten either), or an autosave the browser refused (the last saved
/// session is kept).
#[component]
pub fn AlertBar() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let t = &s.share;
    let gap = s.sentence_gap;
    let Some(alert) = &pg.alert else {
        return html! {};
    };
    let ondismiss = {
        let pg = pg.clone();
        Callback::from(move |_: MouseEvent| pg.dispatch(Change::Alert(None)))
    };
    let body = match alert {
        Alert::BadLink(e) => html! {
            <>
                <strong>{ t.bad_link }</strong>{ gap }
                <span class="app-alert-reason">{ explain_open_error(s, e) }</span>{ gap }
                { t.link_kept }
            </>
        },
        Alert::AutosaveFailed => html! { { t.autosave_failed } },
        Alert::NotRestored => html! { { t.not_restored } },
    };
    html! {
        <div class="app-alert" role="alert">
            <p class="app-alert-text">{ body }</p>
            <button type="button" class="app-alert-dismiss" onclick={ondismiss}>{ t.dismiss }</button>
        </div>
    }
}
