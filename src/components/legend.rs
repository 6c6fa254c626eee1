use rebalance_engine::protocol::Api;
use yew::prelude::*;

use super::use_strings;
use crate::i18n::Strings;
use crate::style::{api_class, api_shape, APIS};

fn gloss(s: &Strings, api: Api) -> &'static str {
    let g = &s.stage.api_gloss;
    match api {
        Api::FindCoordinator => g.find_coordinator,
        Api::JoinGroup => g.join_group,
        Api::SyncGroup => g.sync_group,
        Api::Heartbeat => g.heartbeat,
        Api::LeaveGroup => g.leave_group,
        Api::OffsetCommit => g.offset_commit,
        Api::OffsetFetch => g.offset_fetch,
        Api::DescribeGroups => g.describe_groups,
        Api::ListGroups => g.list_groups,
        Api::DeleteGroups => g.delete_groups,
        Api::ConsumerGroupHeartbeat => g.consumer_group_heartbeat,
        Api::ConsumerGroupDescribe => g.consumer_group_describe,
    }
}

fn swatch(api: Api, extra: &'static str) -> Html {
    html! {
        <svg class="legend-swatch" viewBox="-12 -12 24 24" aria-hidden="true" focusable="false">
            <g class={classes!("token", api_class(api), extra)}><path d={api_shape(api)} /></g>
        </svg>
    }
}

/// Which shape and colour is which API; filled and hollow; errors; rings.
#[component]
pub fn Legend() -> Html {
    let s = use_strings();
    // The legend starts folded: open, it takes the stage's room (and on a phone it pushes the
    // group's state a screen down).
    html! {
        <details class="legend">
            <summary class="legend-heading">{ s.stage.legend }</summary>
            <ul class="legend-list">
                { for APIS.into_iter().map(|api| html! {
                    <li class="legend-item">
                        { swatch(api, "is-request") }
                        { swatch(api, "is-response") }
                        <span class="legend-name">{ api.name() }</span>
                        <span class="legend-gloss">{ gloss(s, api) }</span>
                    </li>
                }) }
            </ul>
            <p class="legend-note">{ s.stage.legend_shapes }</p>
            <p class="legend-note">
                <svg class="legend-swatch" viewBox="-12 -12 24 24" aria-hidden="true" focusable="false">
                    <g class="token api-heartbeat is-response is-error"><path d={api_shape(Api::Heartbeat)} /></g>
                </svg>
                { s.stage.legend_error }
            </p>
            <p class="legend-note">{ s.stage.legend_rings }</p>
        </details>
    }
}
