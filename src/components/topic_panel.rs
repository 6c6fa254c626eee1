use web_sys::{HtmlInputElement, SubmitEvent};
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::i18n::fill;
use crate::state::Change;
use crate::style::consumer_class;
use crate::world::{Command, FAILOVER_MS};

/// The most partitions the create-topic form offers (a topic the stage can still draw).
const MAX_NEW_PARTITIONS: i32 = 64;

/// The topics' partitions coloured by owner (with the owner's name, never colour alone), and the
/// cluster controls: add a partition, create a topic, fail the coordinator over.
#[component]
pub fn TopicPanel() -> Html {
    let s = use_strings();
    let t = &s.topics;
    let failover_hint = fill(t.failover_hint, &[("s", &(FAILOVER_MS / 1000).to_string())]);
    let pg = use_playground();
    let view = &pg.view;
    let new_name = use_state(String::new);
    let new_parts = use_state(|| "3".to_owned());
    let error = use_state(|| None::<String>);

    let onsubmit = {
        let pg = pg.clone();
        let new_name = new_name.clone();
        let new_parts = new_parts.clone();
        let error = error.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let name = new_name.trim().to_owned();
            let valid = !name.is_empty()
                && name.len() <= 100
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
            if !valid {
                error.set(Some(t.err_topic_name.to_owned()));
                return;
            }
            if pg.view.topics.iter().any(|x| x.name == name) {
                error.set(Some(fill(t.err_topic_taken, &[("topic", &name)])));
                return;
            }
            let partitions = match new_parts.trim().parse::<i32>() {
                Ok(n) if (1..=MAX_NEW_PARTITIONS).contains(&n) => n,
                _ => {
                    error.set(Some(fill(
                        t.err_partitions,
                        &[("max", &MAX_NEW_PARTITIONS.to_string())],
                    )));
                    return;
                }
            };
            error.set(None);
            new_name.set(String::new());
            pg.dispatch(Change::Command(Command::CreateTopic { name, partitions }));
        })
    };
    let onname = {
        let new_name = new_name.clone();
        Callback::from(move |e: InputEvent| {
            new_name.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let onparts = {
        let new_parts = new_parts.clone();
        Callback::from(move |e: InputEvent| {
            new_parts.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let onfailover = {
        let pg = pg.clone();
        Callback::from(move |_: MouseEvent| pg.dispatch(Change::Command(Command::CoordinatorFailover)))
    };

    html! {
        <section class="topics panel" aria-labelledby="topics-heading">
            <h2 id="topics-heading" class="panel-heading">{ t.heading }</h2>
            { for view.topics.iter().map(|topic| {
                let add = {
                    let pg = pg.clone();
                    let name = topic.name.clone();
                    Callback::from(move |_: MouseEvent| pg.dispatch(Change::Command(Command::AddPartition(name.clone()))))
                };
                html! {
                    <div class="topic" key={topic.name.clone()}>
                        <h3 class="topic-name mono"><bdi>{ &topic.name }</bdi></h3>
                        <ul class="partition-list" aria-label={topic.name.clone()}>
                            { for topic.partitions.iter().map(|p| {
                                let owner = if p.owners.is_empty() { t.unowned.to_owned() } else { p.owners.join(" + ") };
                                let class = p.owners.first().and_then(|o| view.consumer_index(o)).map(consumer_class);
                                html! {
                                    <li class={classes!("partition", class, p.owners.is_empty().then_some("is-unowned"),
                                            (p.owners.len() > 1).then_some("is-shared"))}
                                        aria-label={fill(t.partition_label, &[("topic", &topic.name), ("p", &p.partition.to_string()), ("owner", &owner)])}>
                                        <span class="partition-number">{ format!("P{}", p.partition) }</span>
                                        <span class="partition-owner">{ owner }</span>
                                    </li>
                                }
                            }) }
                        </ul>
                        <button type="button" onclick={add}>{ "+ " }{ fill(t.add_partition, &[("topic", &topic.name)]) }</button>
                    </div>
                }
            }) }
            <form class="topic-form" {onsubmit} novalidate=true>
                <h3 class="topic-form-heading">{ t.new_topic }</h3>
                <div class="form-field">
                    <label for="topic-name">{ t.topic_name }</label>
                    <input id="topic-name" type="text" value={(*new_name).clone()} oninput={onname}
                        aria-invalid={error.is_some().to_string()} aria-describedby={error.is_some().then_some("topic-error")} />
                </div>
                <div class="form-field form-field-narrow">
                    <label for="topic-partitions">{ t.partitions }</label>
                    <input id="topic-partitions" type="text" inputmode="numeric" value={(*new_parts).clone()} oninput={onparts} />
                </div>
                <button type="submit">{ t.create }</button>
                if let Some(e) = &*error {
                    <span id="topic-error" class="form-error" role="alert">{ e }</span>
                }
            </form>
            <div class="cluster-actions" role="group" aria-labelledby="cluster-heading">
                <h3 id="cluster-heading" class="topic-form-heading">{ t.cluster }</h3>
                { for view.brokers.iter().map(|b| {
                    let n = b.node.0.to_string();
                    let (label, cmd) = if b.alive {
                        (fill(t.crash_broker, &[("n", &n)]), Command::CrashBroker(b.node))
                    } else {
                        (fill(t.restart_broker, &[("n", &n)]), Command::RestartBroker(b.node))
                    };
                    let pg = pg.clone();
                    let onclick = Callback::from(move |_: MouseEvent| pg.dispatch(Change::Command(cmd.clone())));
                    html! {
                        <button type="button" key={n.clone()} class={classes!(b.alive.then_some("danger"))} {onclick}
                            title={t.crash_hint}>{ label }</button>
                    }
                }) }
                <span class="form-hint">{ t.crash_hint }</span>
                <button type="button" onclick={onfailover} title={failover_hint.clone()}>{ t.failover }</button>
                <span class="form-hint">{ failover_hint }</span>
            </div>
        </section>
    }
}
