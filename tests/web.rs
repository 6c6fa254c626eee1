//! Component tests, in headless Chromium: `cargo test --target wasm32-unknown-unknown`.
#![cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]

use rebalance_playground::components::{
    ConsumerList, GroupPanel, GroupStates, Inspector, ReplicationPanel, StateDiagram,
};
use rebalance_playground::i18n::Lang;
use rebalance_playground::state::{Change, Playground, PlaygroundContext};
use rebalance_playground::world::{default_consumer, Command};
use rebalance_playground::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element to render into, so that tests do not see each other's output.
fn mount_point() -> Element {
    // Every test starts a new session: no link in the URL, nothing autosaved by an earlier test.
    let window = web_sys::window().unwrap();
    let _ = window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#"));
    let _ = window
        .local_storage()
        .unwrap()
        .unwrap()
        .remove_item(rebalance_playground::sharing::AUTOSAVE_KEY);
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div
}

/// Waits until the app has rendered all its panels: the group view comes first, the others once
/// the browser has painted it (see `App`).
async fn settle() {
    yew::scheduler::flush().await;
    let window = web_sys::window().unwrap();
    // Two rounds: the app asks for its frame while it renders, which may be after this call.
    for _ in 0..2 {
        let frame = js_sys::Promise::new(&mut |resolve, _| {
            window.request_animation_frame(&resolve).unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(frame).await.unwrap();
        let timer = js_sys::Promise::new(&mut |resolve, _| {
            window.set_timeout_with_callback(&resolve).unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(timer).await.unwrap();
        yew::scheduler::flush().await;
    }
}

/// Waits until something matches `selector`: on a busy machine Yew may render a change in a later
/// task than the one `flush` runs (a condition with a bound, never a fixed sleep).
async fn until_present(root: &Element, selector: &str) {
    let window = web_sys::window().unwrap();
    for _ in 0..200 {
        yew::scheduler::flush().await;
        if root.query_selector(selector).unwrap().is_some() {
            return;
        }
        let timer = js_sys::Promise::new(&mut |resolve, _| {
            window
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 10)
                .unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(timer).await.unwrap();
    }
    panic!("nothing matches {selector} after 200 renders");
}

fn text_of(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
        .text_content()
        .unwrap_or_default()
}

/// Every element (HTML or SVG) that matches.
fn all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.get(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

fn button(root: &Element, name: &str) -> HtmlElement {
    all(root, "button")
        .into_iter()
        .filter_map(|b| b.dyn_into::<HtmlElement>().ok())
        .find(|b| b.text_content().unwrap_or_default().trim().ends_with(name))
        .unwrap_or_else(|| panic!("no {name} button"))
}

/// Sets a text field as a user's typing would, firing `input`.
fn type_into(root: &Element, selector: &str, value: &str) {
    let input: HtmlInputElement = root
        .query_selector(selector)
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    input.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("input", &init).unwrap();
    input.dispatch_event(&ev).unwrap();
}

fn press(key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .dispatch_event(&ev)
        .unwrap();
}

#[derive(PartialEq, Properties)]
struct InLangProps {
    lang: Lang,
    /// Consumers to add before rendering, and instants to run.
    #[prop_or_default]
    consumers: usize,
    #[prop_or_default]
    steps: usize,
}

/// The group panel and the inspector over a paused playground of their own.
#[component]
fn PanelIn(props: &InLangProps) -> Html {
    let pg = use_reducer(|| Playground::new(1, false));
    let (consumers, steps) = (props.consumers, props.steps);
    {
        let pg = pg.clone();
        use_effect_with((), move |_| {
            for n in 1..=consumers {
                let cfg = default_consumer(&format!("C{n}"));
                pg.dispatch(Change::Command(Command::AddConsumer(Box::new(cfg))));
            }
            for _ in 0..steps {
                pg.dispatch(Change::Step);
            }
        });
    }
    html! {
        <ContextProvider<Lang> context={props.lang}>
            <ContextProvider<PlaygroundContext> context={pg}>
                <GroupPanel />
                <GroupStates />
                <Inspector />
            </ContextProvider<PlaygroundContext>>
        </ContextProvider<Lang>>
    }
}

#[wasm_bindgen_test]
async fn group_panel_shows_a_new_group_in_each_language() {
    let root = mount_point();
    yew::Renderer::<PanelIn>::with_root_and_props(
        root.clone(),
        InLangProps {
            lang: Lang::En,
            consumers: 0,
            steps: 0,
        },
    )
    .render();
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "[data-testid=group-state]"), "Empty");
    assert_eq!(text_of(&root, "[data-testid=generation]"), "0");
    assert_eq!(
        text_of(&root, "[data-testid=offsets-partition]"),
        "__consumer_offsets-30"
    );

    let root = mount_point();
    yew::Renderer::<PanelIn>::with_root_and_props(
        root.clone(),
        InLangProps {
            lang: Lang::Zh,
            consumers: 0,
            steps: 0,
        },
    )
    .render();
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "[data-testid=group-state]"), "空（Empty）");
    assert!(text_of(&root, "h2").contains("消费者组"));
}

#[wasm_bindgen_test]
async fn stepping_three_consumers_reaches_stable_with_a_leader_and_a_new_generation() {
    let root = mount_point();
    yew::Renderer::<PanelIn>::with_root_and_props(
        root.clone(),
        InLangProps {
            lang: Lang::En,
            consumers: 3,
            steps: 400,
        },
    )
    .render();
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "[data-testid=group-state]"), "Stable");
    let generation: i32 = text_of(&root, "[data-testid=generation]").parse().unwrap();
    assert!(generation >= 1);
    let leader = text_of(&root, "[data-testid=leader]");
    assert!(leader.contains('C'), "leader named: {leader:?}");
    assert_eq!(text_of(&root, "[data-testid=assignor]"), "range");
    // The lit state and the arrow of the last transition.
    assert_eq!(all(&root, ".state-node.is-current").len(), 1);
    assert_eq!(all(&root, ".state-edge.is-last").len(), 1);
}

#[derive(PartialEq, Properties)]
struct DiagramProps {
    current: rebalance_engine::GroupState,
}

#[component]
fn Diagram(props: &DiagramProps) -> Html {
    html! { <StateDiagram current={props.current} previous={Some(rebalance_engine::GroupState::CompletingRebalance)} transition_key={7} /> }
}

#[wasm_bindgen_test]
async fn state_diagram_marks_exactly_the_current_state_in_words() {
    let root = mount_point();
    yew::Renderer::<Diagram>::with_root_and_props(
        root.clone(),
        DiagramProps {
            current: rebalance_engine::GroupState::Stable,
        },
    )
    .render();
    yew::scheduler::flush().await;
    let nodes = root.query_selector_all("[role=listitem].state-node").unwrap();
    assert_eq!(nodes.length(), 5, "one node per Kafka group state");
    let current = root.query_selector_all("[aria-current=step]").unwrap();
    assert_eq!(current.length(), 1);
    let current = current.get(0).unwrap().text_content().unwrap();
    assert!(current.contains("Stable"), "lit node was {current:?}");
    assert!(
        current.contains("current state"),
        "the current state is said in words, not only colour"
    );
}

#[wasm_bindgen_test]
async fn language_switch_translates_the_app_and_the_document() {
    let root = mount_point();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;

    button(&root, "English").click();
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "h1"), "Kafka Rebalance Playground");
    assert_eq!(
        button(&root, "English").get_attribute("aria-pressed").as_deref(),
        Some("true")
    );

    button(&root, "中文").click();
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "h1"), "Kafka 消费者组重平衡演示");
    assert_eq!(
        button(&root, "中文").get_attribute("aria-pressed").as_deref(),
        Some("true")
    );
    assert_eq!(
        button(&root, "English").get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
    let html = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .document_element()
        .unwrap();
    assert_eq!(html.get_attribute("lang").as_deref(), Some("zh-CN"));
    assert!(text_of(&root, ".toolbar").contains("速度"), "toolbar translated");
    button(&root, "English").click();
    yew::scheduler::flush().await;
    app.destroy();
    root.remove();
}

#[wasm_bindgen_test]
async fn the_app_adds_consumers_steps_to_stable_and_inspects_a_node() {
    let root = mount_point();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    button(&root, "English").click();
    yew::scheduler::flush().await;

    // Pause, so that only Step moves virtual time.
    button(&root, "Pause").click();
    yew::scheduler::flush().await;
    for _ in 0..3 {
        button(&root, "Add consumer").click();
        yew::scheduler::flush().await;
    }
    assert_eq!(all(&root, ".consumer-card").len(), 3);
    assert_eq!(all(&root, ".stage-consumer").len(), 3);
    for _ in 0..400 {
        button(&root, "Step").click();
        yew::scheduler::flush().await;
        if text_of(&root, "[data-testid=group-state]") == "Stable" {
            break;
        }
    }
    assert_eq!(text_of(&root, "[data-testid=group-state]"), "Stable");
    assert_eq!(
        all(&root, ".stage-consumer.is-leader").len(),
        1,
        "exactly one crowned node"
    );
    assert_eq!(
        all(&root, ".consumer-card-leader").len(),
        1,
        "exactly one leader card"
    );

    // Click the first consumer's node: the inspector shows its member id.
    let node = root.query_selector(".stage-consumer").unwrap().unwrap();
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    node.dispatch_event(&web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    let inspector = text_of(&root, "[data-testid=inspector]");
    assert!(
        inspector.contains("Member id") && inspector.contains("C1-"),
        "{inspector}"
    );

    // The event log explains the rebalance in words.
    let log = text_of(&root, ".log-lines");
    assert!(log.contains("the group is Stable"), "{log}");
    app.destroy();
    root.remove();
}

/// Three presses of "Add consumer" before the page is drawn again (a quick keyboard user on a busy
/// machine) add three consumers with the next default names; none is refused as a duplicate.
#[wasm_bindgen_test]
async fn quick_presses_add_one_consumer_each_before_the_form_is_redrawn() {
    let root = mount_point();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    button(&root, "English").click();
    yew::scheduler::flush().await;
    button(&root, "Pause").click();
    yew::scheduler::flush().await;
    let add = button(&root, "Add consumer");
    for _ in 0..3 {
        add.click();
    }
    yew::scheduler::flush().await;
    let names: Vec<String> = all(&root, ".consumer-card")
        .iter()
        .filter_map(|c| c.get_attribute("data-consumer"))
        .collect();
    assert_eq!(names, ["C1", "C2", "C3"]);
    assert!(root.query_selector("#consumer-name-error").unwrap().is_none());
    app.destroy();
    root.remove();
}

/// "Add consumer" beside the stage is the add-consumer form's submit button. The form is one of the
/// detail panels, which join the group view a frame after it is painted: before that, the button
/// adds the consumer the form would add with nothing changed in it, under the next default name.
#[wasm_bindgen_test]
async fn add_consumer_before_the_panels_are_drawn_adds_the_forms_default_consumer() {
    let added = |children: Html| async move {
        let world = rebalance_playground::world::World::new(3);
        let pg = rebalance_playground::sharing::playground_with(world);
        let shared = pg.world.clone();
        let root = mount_point();
        let app = yew::Renderer::<On>::with_root_and_props(root.clone(), OnProps { pg, children }).render();
        yew::scheduler::flush().await;
        button(&root, "Add consumer").click();
        yew::scheduler::flush().await;
        let w = shared.borrow();
        let consumers: Vec<_> = w
            .sim()
            .consumer_names()
            .into_iter()
            .map(|n| w.sim().consumer(&n).unwrap().config().clone())
            .collect();
        drop(w);
        app.destroy();
        root.remove();
        consumers
    };
    use rebalance_playground::components::{AddConsumerForm, StageActions};
    let without_form = added(html! { <StageActions /> }).await;
    let with_form = added(html! { <><StageActions /><AddConsumerForm /></> }).await;
    assert_eq!(without_form.len(), 1, "the button alone added one consumer");
    assert_eq!(without_form[0].name, "C1");
    assert_eq!(with_form.len(), 1, "the form added one consumer");
    assert_eq!(
        without_form, with_form,
        "the same consumer, with the same settings"
    );
}

#[wasm_bindgen_test]
async fn a_name_with_markup_is_refused_with_a_message_and_nothing_is_added() {
    let root = mount_point();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    button(&root, "English").click();
    yew::scheduler::flush().await;
    type_into(&root, "#consumer-name", "<b>x</b>");
    yew::scheduler::flush().await;
    button(&root, "Add consumer").click();
    yew::scheduler::flush().await;
    until_present(&root, "#consumer-name-error").await;
    assert!(all(&root, ".consumer-card").is_empty(), "nothing added");
    let error = text_of(&root, "#consumer-name-error");
    assert!(error.contains("'<' is not allowed"), "{error}");
    assert!(all(&root, "[role=alert]").iter().any(|a| a
        .text_content()
        .unwrap_or_default()
        .contains("'<' is not allowed")));
    // What the user typed is kept, to correct it.
    let name: HtmlInputElement = root
        .query_selector("#consumer-name")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(name.value(), "<b>x</b>");
    type_into(&root, "#consumer-name", "b x");
    yew::scheduler::flush().await;
    button(&root, "Add consumer").click();
    yew::scheduler::flush().await;
    assert_eq!(all(&root, ".consumer-card").len(), 1);
    app.destroy();
    root.remove();
}

/// Step goes to the next entry the log shows: with routine entries hidden (the default), each
/// press adds a shown line (it used to stop on hidden heartbeats, changing nothing in view).
#[wasm_bindgen_test]
async fn step_goes_to_the_next_entry_the_log_shows() {
    let root = mount_point();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    button(&root, "English").click();
    yew::scheduler::flush().await;
    button(&root, "Pause").click();
    yew::scheduler::flush().await;
    for _ in 0..2 {
        button(&root, "Add consumer").click();
        yew::scheduler::flush().await;
    }
    let newest = |root: &Element| {
        all(root, ".log-line")
            .first()
            .map(|l| (l.get_attribute("data-seq").unwrap_or_default(), l.class_name()))
    };
    // Only C2's entries: many instants carry only C1's or routine traffic, yet each Step shows
    // a new line of C2's.
    let select: web_sys::HtmlSelectElement = all(&root, ".log-filters select")[0].clone().dyn_into().unwrap();
    select.set_value("C2");
    select
        .dispatch_event(
            &web_sys::Event::new_with_event_init_dict("change", &{
                let init = web_sys::EventInit::new();
                init.set_bubbles(true);
                init
            })
            .unwrap(),
        )
        .unwrap();
    yew::scheduler::flush().await;
    let card_states = |root: &Element| -> Vec<String> {
        all(root, "[data-testid=client-state]")
            .iter()
            .map(|c| c.get_attribute("data-state").unwrap_or_default())
            .collect()
    };
    let clock = |root: &Element| -> u64 {
        root.query_selector("[data-testid=clock]")
            .unwrap()
            .unwrap()
            .get_attribute("data-ms")
            .unwrap()
            .parse()
            .unwrap()
    };
    // Each Step shows a new line of C2's, or, when none comes, runs a visible 30 s looking for
    // one (a Step used to run one instant, often C1's or a hidden heartbeat's, and show nothing).
    let mut shown = 0;
    for _ in 0..12 {
        let (before, t0, cards0) = (newest(&root), clock(&root), card_states(&root));
        button(&root, "Step").click();
        yew::scheduler::flush().await;
        let (after, t1) = (newest(&root).expect("a log line"), clock(&root));
        let cards_changed = card_states(&root) != cards0;
        if Some(&after) != before.as_ref() {
            shown += 1;
            assert!(
                !after.1.contains("is-detail"),
                "a routine line while routine lines are hidden"
            );
            assert!(
                text_of(&root, ".log-line").contains("C2"),
                "{}",
                text_of(&root, ".log-line")
            );
        } else {
            assert!(
                cards_changed || t1 - t0 >= rebalance_playground::state::MAX_STEP_MS,
                "Step from {t0} ms to {t1} ms showed nothing new"
            );
        }
    }
    assert!(shown >= 6, "{shown} of 12 Steps showed a line");
    for _ in 0..200 {
        if text_of(&root, "[data-testid=group-state]") == "Stable" {
            break;
        }
        button(&root, "Step").click();
        yew::scheduler::flush().await;
    }
    assert_eq!(text_of(&root, "[data-testid=group-state]"), "Stable");
    // In Stable too.
    for _ in 0..4 {
        let (before, t0, cards0) = (newest(&root), clock(&root), card_states(&root));
        button(&root, "Step").click();
        yew::scheduler::flush().await;
        let (after, t1) = (newest(&root), clock(&root));
        assert!(
            after != before
                || card_states(&root) != cards0
                || t1 - t0 >= rebalance_playground::state::MAX_STEP_MS,
            "Step from {t0} ms to {t1} ms showed nothing new"
        );
    }
    app.destroy();
    root.remove();
}

/// Names of any length or script: cut on the stage and the cards with the full name in a title,
/// every card named by its heading (a name with a space too), and the log's filter not stretched.
#[wasm_bindgen_test]
async fn long_spaced_and_rtl_names_are_cut_named_and_isolated() {
    let root = mount_point();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    button(&root, "English").click();
    yew::scheduler::flush().await;
    button(&root, "Pause").click();
    yew::scheduler::flush().await;
    let rtl = "مستهلك-الطلبات-".repeat(8);
    for name in ["b x", rtl.as_str()] {
        type_into(&root, "#consumer-name", name);
        yew::scheduler::flush().await;
        button(&root, "Add consumer").click();
        yew::scheduler::flush().await;
    }
    let document = web_sys::window().unwrap().document().unwrap();
    let cards = all(&root, ".consumer-card");
    assert_eq!(cards.len(), 2);
    for (card, name) in cards.iter().zip(["b x", rtl.as_str()]) {
        let ids = card.get_attribute("aria-labelledby").expect("labelled");
        assert!(!ids.contains(' '), "one id: {ids:?}");
        let heading = document.get_element_by_id(&ids).expect("the label exists");
        assert_eq!(heading.text_content().unwrap(), name);
        assert_eq!(heading.get_attribute("title").as_deref(), Some(name));
        assert_eq!(all(&heading, "bdi").len(), 1, "the name is isolated");
    }
    // The stage: the long name is cut, the node's title and label hold it whole.
    let node = all(&root, ".stage-consumer")[1].clone();
    let drawn = text_of(&node, ".stage-consumer-name");
    assert!(drawn.ends_with('…') && drawn.chars().count() < 12, "{drawn}");
    assert_eq!(text_of(&node, "title"), rtl);
    assert!(node.get_attribute("aria-label").unwrap().contains(&rtl));
    // In the log, the consumer's name is isolated from the sentence around it.
    let isolated: Vec<String> = all(&root, ".log-text bdi")
        .iter()
        .map(|b| b.text_content().unwrap_or_default())
        .collect();
    assert!(isolated.iter().any(|n| n == &rtl), "{isolated:?}");
    assert!(isolated.iter().any(|n| n == "b x"), "{isolated:?}");
    // The log's consumer filter keeps a reasonable width.
    let select: HtmlElement = all(&root, ".log-filters select")[0].clone().dyn_into().unwrap();
    assert!(
        select.offset_width() < 400,
        "the filter is {} px wide",
        select.offset_width()
    );
    app.destroy();
    root.remove();
}

#[wasm_bindgen_test]
async fn impossible_settings_are_refused_with_the_field_named_and_nothing_lost() {
    let root = mount_point();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    button(&root, "English").click();
    yew::scheduler::flush().await;

    type_into(&root, "#consumer-session", "8000");
    type_into(&root, "#consumer-heartbeat", "9000");
    yew::scheduler::flush().await;
    button(&root, "Add consumer").click();
    yew::scheduler::flush().await;
    assert!(all(&root, ".consumer-card").is_empty(), "nothing added");
    let error = text_of(&root, "#consumer-heartbeat-error");
    assert!(
        error.contains("heartbeat.interval.ms") && error.contains("session.timeout.ms"),
        "{error}"
    );
    let hb: HtmlInputElement = root
        .query_selector("#consumer-heartbeat")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(hb.value(), "9000", "what the user typed is kept");
    assert_eq!(hb.get_attribute("aria-invalid").as_deref(), Some("true"));

    type_into(&root, "#consumer-heartbeat", "2000");
    yew::scheduler::flush().await;
    button(&root, "Add consumer").click();
    yew::scheduler::flush().await;
    assert_eq!(all(&root, ".consumer-card").len(), 1);
    app.destroy();
    root.remove();
}

#[wasm_bindgen_test]
async fn keyboard_shortcuts_open_help_step_and_change_speed() {
    let root = mount_point();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    button(&root, "English").click();
    yew::scheduler::flush().await;

    press("?");
    yew::scheduler::flush().await;
    assert_eq!(all(&root, "[role=dialog]").len(), 1, "? opens the help");
    assert!(text_of(&root, "[role=dialog]").contains("Play or pause"));
    press("Escape");
    yew::scheduler::flush().await;
    assert!(all(&root, "[role=dialog]").is_empty(), "Escape closes it");

    press(" ");
    yew::scheduler::flush().await;
    assert!(
        button(&root, "Play").get_attribute("aria-pressed").as_deref() == Some("false"),
        "Space paused"
    );
    press("+");
    yew::scheduler::flush().await;
    let speed: HtmlInputElement = root
        .query_selector("input[type=range]")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(speed.value(), "2");
    press("a");
    yew::scheduler::flush().await;
    assert_eq!(all(&root, ".consumer-card").len(), 1, "a adds a consumer");
    let clock = || {
        root.query_selector("[data-testid=clock]")
            .unwrap()
            .unwrap()
            .get_attribute("data-ms")
    };
    let before = clock();
    press(".");
    yew::scheduler::flush().await;
    press(".");
    yew::scheduler::flush().await;
    let after = clock();
    assert_ne!(before, after, "step moved virtual time");
    app.destroy();
    root.remove();
}

#[wasm_bindgen_test]
async fn reset_starts_an_empty_world_and_forgets_its_log() {
    let root = mount_point();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    button(&root, "English").click();
    yew::scheduler::flush().await;
    button(&root, "Pause").click();
    yew::scheduler::flush().await;
    button(&root, "Add consumer").click();
    yew::scheduler::flush().await;
    for _ in 0..6 {
        button(&root, "Step").click();
        yew::scheduler::flush().await;
    }
    assert!(text_of(&root, ".log-lines").contains("C1"));
    let seed = text_of(&root, "[data-testid=seed]");

    button(&root, "Reset").click();
    yew::scheduler::flush().await;
    assert!(all(&root, ".consumer-card").is_empty());
    assert_eq!(text_of(&root, "[data-testid=group-state]"), "Empty");
    assert_ne!(text_of(&root, "[data-testid=seed]"), seed, "a new seed");
    let log = root
        .query_selector(".log-lines")
        .unwrap()
        .and_then(|l| l.text_content())
        .unwrap_or_default();
    assert!(!log.contains("C1"), "no line of the old world is left: {log}");
    app.destroy();
    root.remove();
}

// ------------------------------------------------------------------------------------------------
// Consumer cards: the client state "revoking".
// ------------------------------------------------------------------------------------------------

#[derive(PartialEq, Properties)]
struct CardsProps {
    lang: Lang,
}

/// The consumer list over a paused playground where C1 owns every partition and C2 joins: C1's
/// eager rebalance starts with the auto-commit before it, its partitions pending revocation. The
/// world is stepped (outside the reducer, as the animation loop does) until C1 is revoking.
#[component]
fn RevokingCards(props: &CardsProps) -> Html {
    use rebalance_engine::client::ClientState;
    let pg = use_reducer(|| Playground::new(3, false));
    {
        let pg = pg.clone();
        use_effect_with((), move |_| {
            {
                let mut w = pg.world.borrow_mut();
                w.apply(Command::AddConsumer(Box::new(default_consumer("C1"))))
                    .unwrap();
                for _ in 0..80 {
                    w.advance(100.0);
                }
                w.apply(Command::AddConsumer(Box::new(default_consumer("C2"))))
                    .unwrap();
                for _ in 0..5_000 {
                    w.step();
                    if w.sim()
                        .consumers()
                        .iter()
                        .any(|c| c.client_state == ClientState::Revoking)
                    {
                        break;
                    }
                }
            }
            pg.dispatch(Change::Refresh);
        });
    }
    html! {
        <ContextProvider<Lang> context={props.lang}>
            <ContextProvider<PlaygroundContext> context={pg}>
                <ConsumerList />
            </ContextProvider<PlaygroundContext>>
        </ContextProvider<Lang>>
    }
}

#[wasm_bindgen_test]
async fn a_revoking_consumer_says_so_with_a_word_an_icon_and_its_partitions() {
    for (lang, word, caption) in [
        (Lang::En, "revoking", "Revoking"),
        (Lang::Zh, "撤销中", "正在撤销"),
    ] {
        let root = mount_point();
        let app =
            yew::Renderer::<RevokingCards>::with_root_and_props(root.clone(), CardsProps { lang }).render();
        yew::scheduler::flush().await;
        let card = root
            .query_selector("[data-consumer=C1]")
            .unwrap()
            .expect("C1's card");
        let state = card
            .query_selector("[data-testid=client-state]")
            .unwrap()
            .unwrap();
        assert_eq!(state.get_attribute("data-state").as_deref(), Some("revoking"));
        assert_eq!(state.text_content().unwrap_or_default().trim(), word);
        assert!(
            state
                .query_selector("svg[aria-hidden=true] path")
                .unwrap()
                .is_some(),
            "an icon, not colour alone"
        );
        let revoking = text_of(&card, "[data-testid=revoking]");
        assert!(
            revoking.contains(caption) && revoking.contains("test_topic-0"),
            "{revoking}"
        );
        // C2 is not revoking: it is joining, and says so.
        let other = root
            .query_selector("[data-consumer=C2] [data-testid=client-state]")
            .unwrap()
            .unwrap();
        assert_ne!(other.get_attribute("data-state").as_deref(), Some("revoking"));
        app.destroy();
        root.remove();
    }
}

// ------------------------------------------------------------------------------------------------
// The replication panel: the group's __consumer_offsets partition, live.
// ------------------------------------------------------------------------------------------------

thread_local! {
    /// The playground of the component under test, for the test to drive.
    static HANDLE: std::cell::RefCell<Option<PlaygroundContext>> = const { std::cell::RefCell::new(None) };
}

/// The replication panel over a paused playground with one consumer (auto-committing every 5 s);
/// the test advances its world and refreshes it through [`HANDLE`].
#[component]
fn ReplicationIn(props: &CardsProps) -> Html {
    let pg = use_reducer(|| Playground::new(5, false));
    {
        let pg = pg.clone();
        use_effect_with((), move |_| {
            pg.world
                .borrow_mut()
                .apply(Command::AddConsumer(Box::new(default_consumer("C1"))))
                .unwrap();
            HANDLE.with(|h| *h.borrow_mut() = Some(pg.clone()));
            pg.dispatch(Change::Refresh);
        });
    }
    html! {
        <ContextProvider<Lang> context={props.lang}>
            <ContextProvider<PlaygroundContext> context={pg}>
                <ReplicationPanel />
            </ContextProvider<PlaygroundContext>>
        </ContextProvider<Lang>>
    }
}

async fn advance(ms: u64) {
    let pg = HANDLE.with(|h| h.borrow().clone()).expect("the panel is mounted");
    {
        let mut w = pg.world.borrow_mut();
        for _ in 0..ms / 100 {
            w.advance(100.0);
        }
    }
    pg.dispatch(Change::Refresh);
    yew::scheduler::flush().await;
}

fn number(root: &Element, selector: &str) -> u64 {
    text_of(root, selector)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{selector} is not a number"))
}

#[wasm_bindgen_test]
async fn the_replication_panel_follows_commits_and_a_slow_follower_leaving_the_isr() {
    let root = mount_point();
    let app =
        yew::Renderer::<ReplicationIn>::with_root_and_props(root.clone(), CardsProps { lang: Lang::En })
            .render();
    yew::scheduler::flush().await;
    advance(10_000).await;
    let heading = text_of(&root, "#replication-heading");
    assert_eq!(heading, "Replication: __consumer_offsets-30");
    let rows = all(&root, "[data-testid^=replica-]");
    assert_eq!(rows.len(), 3, "replication factor 3");
    let leader_rows: Vec<&Element> = rows
        .iter()
        .filter(|r| r.text_content().unwrap_or_default().contains("leader"))
        .collect();
    assert_eq!(leader_rows.len(), 1, "one leader, marked in words");
    for r in &rows {
        assert_eq!(text_of(r, "[data-testid=in-isr]").trim(), "✓ in the ISR");
    }
    let hw = number(&root, "[data-testid=hw]");
    let leo = number(leader_rows[0], "[data-testid=leo]");
    assert!(hw > 0 && leo >= hw, "hw {hw}, leader's LEO {leo}");

    // Auto-commits append records: the leader's LEO and then the HW move on.
    advance(12_000).await;
    assert!(number(&root, "[data-testid=hw]") > hw, "the HW advanced");
    assert!(
        number(leader_rows[0], "[data-testid=leo]") > leo,
        "the leader's LEO advanced"
    );

    // Slow a follower: after replica.lag.time.max.ms it is out of the ISR, said in words.
    let follower = rows
        .iter()
        .find(|r| !r.text_content().unwrap_or_default().contains("leader"))
        .unwrap()
        .clone();
    let slow = all(&follower, "button")
        .into_iter()
        .find(|b| {
            b.get_attribute("aria-label")
                .unwrap_or_default()
                .starts_with("Slow down broker")
        })
        .expect("a follower can be slowed")
        .dyn_into::<HtmlElement>()
        .unwrap();
    slow.click();
    yew::scheduler::flush().await;
    assert!(text_of(&follower, "td").contains("slow: fetches every 40 s"));
    advance(50_000).await;
    let isr = follower.query_selector("[data-testid=in-isr]").unwrap().unwrap();
    assert_eq!(isr.get_attribute("data-in-sync").as_deref(), Some("false"));
    assert_eq!(isr.text_content().unwrap_or_default().trim(), "✗ out of the ISR");
    assert_eq!(
        text_of(&root, "[data-testid=isr]").matches(',').count(),
        1,
        "two replicas left in the ISR"
    );
    app.destroy();
    root.remove();
    HANDLE.with(|h| h.borrow_mut().take());
}

#[wasm_bindgen_test]
async fn the_replication_panel_speaks_chinese() {
    let root = mount_point();
    let app =
        yew::Renderer::<ReplicationIn>::with_root_and_props(root.clone(), CardsProps { lang: Lang::Zh })
            .render();
    yew::scheduler::flush().await;
    advance(5_000).await;
    assert_eq!(
        text_of(&root, "#replication-heading"),
        "副本复制：__consumer_offsets-30"
    );
    assert!(text_of(&root, ".replication-table").contains("在 ISR 中"));
    assert!(text_of(&root, ".replication-facts").contains("高水位（HW）"));
    app.destroy();
    root.remove();
    HANDLE.with(|h| h.borrow_mut().take());
}

#[derive(PartialEq, Properties)]
struct OnProps {
    pg: Playground,
    #[prop_or_default]
    children: Html,
}

/// Its children in English over a given playground (an imported scenario, a played world).
#[component]
fn On(props: &OnProps) -> Html {
    let initial = props.pg.clone();
    let pg = use_reducer(move || initial);
    html! {
        <ContextProvider<Lang> context={Lang::En}>
            <ContextProvider<PlaygroundContext> context={pg}>
                { props.children.clone() }
            </ContextProvider<PlaygroundContext>>
        </ContextProvider<Lang>>
    }
}

/// An imported scenario is drawn with its own group: the partition Kafka picks for its group id
/// and partition count, that partition's leader as coordinator, and the form's bounds from its
/// coordinator settings.
#[wasm_bindgen_test]
async fn an_imported_scenario_shows_its_own_group_and_bounds() {
    let json = r#"{"version": 1, "seed": 5, "group_id": "payments", "end_ms": 2000,
        "coordinator": {"offsets_topic_num_partitions": 7, "group_min_session_timeout_ms": 10000},
        "topics": [{"name": "orders", "partitions": 3, "records_per_sec": 5}]}"#;
    let world = rebalance_playground::sharing::open_file(json.len() as f64, json).expect("it imports");
    // Kafka: Utils.abs("payments".hashCode()) % 7, with Java's String.hashCode written out here.
    let hash = "payments"
        .encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)));
    let partition = if hash == i32::MIN { 0 } else { hash.abs() } % 7;
    let coordinator = world.sim().cluster().leader(partition).expect("a leader");
    let pg = rebalance_playground::sharing::playground_with(world);

    let root = mount_point();
    let children =
        html! { <><GroupPanel /><GroupStates /><rebalance_playground::components::AddConsumerForm /></> };
    let app = yew::Renderer::<On>::with_root_and_props(root.clone(), OnProps { pg, children }).render();
    yew::scheduler::flush().await;
    assert!(
        text_of(&root, "h2").contains("payments"),
        "{}",
        text_of(&root, "h2")
    );
    assert_eq!(
        text_of(&root, "[data-testid=offsets-partition]"),
        format!("__consumer_offsets-{partition}")
    );
    // (The partition's note moved with the state diagram to the group-states panel, issue #13.)
    let panel = text_of(&root, ".group-panel") + &text_of(&root, ".group-states");
    assert!(panel.contains(&format!("% 7 = {partition}")), "{panel}");
    assert!(
        !panel.contains("28"),
        "the articles' note is for their own group only: {panel}"
    );
    assert!(panel.contains(&format!("broker {}", coordinator.0)), "{panel}");

    type_into(&root, "#consumer-session", "6000");
    yew::scheduler::flush().await;
    let warnings = text_of(&root, ".form-warnings");
    assert!(warnings.contains("from 10000 to 1800000"), "{warnings}");
    app.destroy();
    root.remove();
}

/// An engineer types the commands they know: the simulated cluster answers in the tool's format,
/// and a mistyped command gets the tool's kind of error, not a crash.
#[wasm_bindgen_test]
async fn the_admin_console_answers_kafka_consumer_groups_on_the_simulated_cluster() {
    let mut world = rebalance_playground::world::World::new(3);
    for n in ["C1", "C2"] {
        world
            .apply(Command::AddConsumer(Box::new(default_consumer(n))))
            .unwrap();
    }
    for _ in 0..150 {
        world.advance(100.0);
    }
    let pg = rebalance_playground::sharing::playground_with(world);
    let root = mount_point();
    let children = html! { <rebalance_playground::components::ConsolePanel /> };
    let app = yew::Renderer::<On>::with_root_and_props(root.clone(), OnProps { pg, children }).render();
    yew::scheduler::flush().await;

    type_into(
        &root,
        "#console-line",
        "kafka-consumer-groups.sh --bootstrap-server localhost:9092 --describe --group test_group_1 --state",
    );
    yew::scheduler::flush().await;
    button(&root, "Run").click();
    yew::scheduler::flush().await;
    let out = text_of(&root, ".console-stdout");
    assert!(out.contains("test_group_1") && out.contains("Stable"), "{out}");
    assert!(out.contains("COORDINATOR (ID)"), "{out}");

    type_into(
        &root,
        "#console-line",
        "kafka-consumer-groups.sh --bootstrap-server x:9092 --describe",
    );
    yew::scheduler::flush().await;
    button(&root, "Run").click();
    yew::scheduler::flush().await;
    let newest = text_of(&root, ".console-entry");
    assert!(newest.contains("exit code 1"), "{newest}");

    type_into(&root, "#console-line", "kafka-topics.sh --describe 'unclosed");
    yew::scheduler::flush().await;
    button(&root, "Run").click();
    yew::scheduler::flush().await;
    assert!(text_of(&root, "#console-error").contains("never closed"));
    app.destroy();
    root.remove();
}

/// "Import a log": the pasted log replays at t=0, paused, with its name, its assumptions and its
/// lines; clicking a line shows that moment (the timeline moves there).
#[wasm_bindgen_test]
async fn a_pasted_log_replays_and_a_click_on_a_line_goes_to_its_moment() {
    let pg = Playground::new(1, false);
    let root = mount_point();
    let children = html! { <>
        <rebalance_playground::components::Timeline />
        <rebalance_playground::components::ImportedPanel />
        <rebalance_playground::components::ShareBar />
    </> };
    let app = yew::Renderer::<On>::with_root_and_props(root.clone(), OnProps { pg, children }).render();
    yew::scheduler::flush().await;
    let area: web_sys::HtmlTextAreaElement = root
        .query_selector(".log-import textarea")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    area.set_value(include_str!("../lessons/16-rebalance-storm.log"));
    button(&root, "Replay this log").click();
    yew::scheduler::flush().await;
    let status = text_of(&root, ".share-info");
    assert_eq!(
        status,
        "Replayed Replay of group orders-app from 56 log lines, at t=0, paused."
    );
    let panel = text_of(&root, "[data-testid=imported]");
    assert!(
        panel.contains("Replay of group orders-app") && panel.contains("Assumed:"),
        "{panel}"
    );
    assert!(
        text_of(&root, ".timeline-value").starts_with("0.0 s / 82.0 s"),
        "{}",
        text_of(&root, ".timeline-value")
    );
    // Line 33: the broker's `Preparing to rebalance ... consumer poll timeout has expired.`, at
    // 10:00:36.051, 36.041 s after the first group line (10:00:00.010).
    let line = root
        .query_selector("button.import-line[title='Line 33 at 36.041 s']")
        .unwrap()
        .expect("line 33 is listed")
        .dyn_into::<HtmlElement>()
        .unwrap();
    assert!(line
        .text_content()
        .unwrap()
        .contains("Preparing to rebalance group orders-app"));
    line.click();
    yew::scheduler::flush().await;
    assert!(
        text_of(&root, ".timeline-value").starts_with("36.0 s /"),
        "{}",
        text_of(&root, ".timeline-value")
    );
    assert_eq!(
        text_of(&root, "button.import-line.is-current .import-line-no"),
        "33"
    );
    // The 56 lines fall into a few moments of the 82 s (one mark per 0.1% of the timeline): the
    // joins near 0 s, generation 1 at 6 s, the rebalances at 36-39 s and 69-72 s.
    let marks = all(&root, ".timeline-mark").len();
    assert!((8..=56).contains(&marks), "{marks} marks");
    app.destroy();
    root.remove();
}

// ================================================================ compare mode (issue 17)

/// Three consumers join; C2 is killed at 30 s; 70 s in all, under every protocol.
fn compare_story() -> rebalance_engine::compare::CompareSession {
    use rebalance_engine::compare::CompareSession;
    use rebalance_engine::sim::Action;
    use rebalance_engine::SimTime;
    let base = rebalance_playground::world::default_base(5);
    let mut s = CompareSession::new(base).unwrap();
    for (i, name) in ["C1", "C2", "C3"].into_iter().enumerate() {
        s.run_to(SimTime(i as u64 * 1_000));
        let config = Box::new(default_consumer(name));
        s.apply(Action::AddConsumer { config }).unwrap();
    }
    s.run_to(SimTime(30_000));
    s.apply(Action::Kill {
        consumer: "C2".into(),
    })
    .unwrap();
    s.run_to(SimTime(70_000));
    s
}

#[derive(PartialEq, Properties)]
struct ChartIn {
    lang: Lang,
    view: std::rc::Rc<rebalance_engine::compare::OwnershipView>,
    summary: std::rc::Rc<rebalance_engine::compare::Summary>,
}

#[component]
fn ChartAndSummary(props: &ChartIn) -> Html {
    use rebalance_playground::components::{CompareSummary, OwnershipChart};
    html! {
        <ContextProvider<Lang> context={props.lang}>
            <OwnershipChart view={props.view.clone()} />
            <CompareSummary summary={props.summary.clone()} />
        </ContextProvider<Lang>>
    }
}

#[wasm_bindgen_test]
async fn the_ownership_chart_draws_the_engines_lanes_and_marks_the_eager_gap() {
    use rebalance_engine::compare::{Protocol, SegmentKind};
    use rebalance_engine::SimTime;
    let s = compare_story();
    for (lang, nothing) in [(Lang::En, "owns nothing"), (Lang::Zh, "什么都不拥有")] {
        let view = s.ownership(Protocol::Eager, SimTime::ZERO).unwrap();
        let summary = s.summary(Protocol::Eager).unwrap();
        let root = mount_point();
        yew::Renderer::<ChartAndSummary>::with_root_and_props(
            root.clone(),
            ChartIn {
                lang,
                view: std::rc::Rc::new(view.clone()),
                summary: std::rc::Rc::new(summary),
            },
        )
        .render();
        until_present(&root, "[data-testid=chart-eager]").await;
        let lanes = all(&root, ".compare-lane");
        assert_eq!(lanes.len(), view.lanes.len());
        for (el, lane) in lanes.iter().zip(&view.lanes) {
            assert_eq!(
                el.get_attribute("data-consumer").as_deref(),
                Some(lane.consumer.as_str())
            );
            let segs = all(el, ".compare-seg");
            assert_eq!(segs.len(), lane.segments.len(), "{}", lane.consumer);
            for (g, seg) in segs.iter().zip(&lane.segments) {
                let kind = match seg.kind() {
                    SegmentKind::Owns => "owns",
                    SegmentKind::Revoking => "revoking",
                    SegmentKind::OwnsNothing => "owns-nothing",
                };
                assert_eq!(g.get_attribute("data-kind").as_deref(), Some(kind));
                // One coloured band per owned partition; a hatched gap where it owns nothing.
                assert_eq!(all(g, ".compare-band").len(), seg.owned.len());
                assert_eq!(all(g, ".compare-gap").len(), usize::from(kind == "owns-nothing"));
                assert_eq!(all(g, ".compare-revoking").len(), usize::from(kind == "revoking"));
            }
        }
        // The survivors' gap after the kill is there, in words too.
        let gaps: Vec<Element> = all(
            &root,
            ".compare-lane[data-consumer=C1] .compare-seg[data-kind=owns-nothing]",
        )
        .into_iter()
        .filter(|g| g.get_attribute("data-from").and_then(|f| f.parse::<u64>().ok()) > Some(30_000))
        .collect();
        assert!(!gaps.is_empty());
        assert!(text_of(&gaps[0], "title").contains(nothing));
        let chart = root.query_selector("[data-testid=chart-eager]").unwrap().unwrap();
        let label = chart.get_attribute("aria-label").unwrap();
        assert!(label.contains(rebalance_playground::components::protocol_name(
            lang.strings(),
            Protocol::Eager
        )));
        assert_eq!(chart.get_attribute("role").as_deref(), Some("img"));
    }
}

#[wasm_bindgen_test]
async fn the_compare_summary_shows_the_engines_numbers() {
    use rebalance_engine::compare::Protocol;
    use rebalance_engine::SimTime;
    let s = compare_story();
    for p in [Protocol::Eager, Protocol::Cooperative] {
        let summary = s.summary(p).unwrap();
        let root = mount_point();
        yew::Renderer::<ChartAndSummary>::with_root_and_props(
            root.clone(),
            ChartIn {
                lang: Lang::En,
                view: std::rc::Rc::new(s.ownership(p, SimTime::ZERO).unwrap()),
                summary: std::rc::Rc::new(summary.clone()),
            },
        )
        .render();
        let sel = format!("[data-testid=summary-{}]", p.key());
        until_present(&root, &sel).await;
        let stat = |k: &str| text_of(&root, &format!("{sel} [data-stat={k}] dd"));
        assert_eq!(stat("rebalances"), summary.rebalances.to_string());
        assert_eq!(stat("revoked"), summary.partitions_revoked.to_string());
        assert_eq!(stat("requests"), summary.requests_sent.to_string());
        assert_eq!(stat("duplicates"), summary.duplicates.to_string());
        let secs = |ms: u64| format!("{}.{} s", ms / 1000, (ms % 1000) / 100);
        assert_eq!(stat("unowned-total"), secs(summary.unowned_total_ms));
        assert_eq!(stat("unowned-worst"), secs(summary.unowned_worst_ms));
        assert!(text_of(&root, &format!("{sel} [data-stat=revoked] dt")).contains("Partitions revoked"));
    }
    // Eager revokes every partition a survivor held; cooperative none of them.
    let (e, c) = (
        s.summary(Protocol::Eager).unwrap(),
        s.summary(Protocol::Cooperative).unwrap(),
    );
    assert!(e.partitions_revoked > c.partitions_revoked);
}

#[wasm_bindgen_test]
async fn the_compare_button_opens_compare_mode_and_goes_back() {
    let root = mount_point();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    button(&root, "Compare protocols").click();
    until_present(&root, "[data-testid=compare]").await;
    assert_eq!(all(&root, "[role=tabpanel]").len(), 3);
    assert!(root
        .query_selector("[data-testid=group-state]")
        .unwrap()
        .is_none());
    // The consumer protocol names the engine's reason while its client is not simulated.
    if let Some(el) = root
        .query_selector("[data-testid=compare-unavailable-consumer]")
        .unwrap()
    {
        assert!(el.text_content().unwrap().contains("group_protocol"));
    }
    button(&root, "Back to the session").click();
    until_present(&root, "[data-testid=group-state]").await;
    assert!(root.query_selector("[data-testid=compare]").unwrap().is_none());
    // Its animation loop and its link must not reach the next test's app.
    app.destroy();
    yew::scheduler::flush().await;
}

/// Picks an option of a `<select>` as a user would, firing `change`.
fn choose(root: &Element, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = root
        .query_selector(selector)
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    select.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
    select.dispatch_event(&ev).unwrap();
}

/// Submits the add-consumer form (its button sits beside the stage, outside this test's tree).
fn submit_form(root: &Element) {
    let form = root.query_selector("#add-consumer-form").unwrap().unwrap();
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::Event::new_with_event_init_dict("submit", &init).unwrap();
    form.dispatch_event(&ev).unwrap();
}

fn value_of(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap()
        .dyn_into::<HtmlInputElement>()
        .unwrap()
        .value()
}

/// The form's advanced settings reach the engine's consumer; a value the engine refuses is named
/// with its limit, keeps what was typed and adds nothing; the session's start settings are checked
/// by the engine and, once good, replay the session from 0 with them.
#[wasm_bindgen_test]
async fn the_advanced_settings_reach_the_engine_and_a_bad_value_keeps_the_draft() {
    let world = rebalance_playground::world::World::new(3);
    let pg = rebalance_playground::sharing::playground_with(world);
    let shared = pg.world.clone();
    let root = mount_point();
    let children = html! { <rebalance_playground::components::AddConsumerForm /> };
    let app = yew::Renderer::<On>::with_root_and_props(root.clone(), OnProps { pg, children }).render();
    yew::scheduler::flush().await;
    let advanced: web_sys::HtmlDetailsElement = root
        .query_selector(".add-consumer-advanced")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert!(!advanced.open(), "collapsed at first");
    assert_eq!(text_of(&root, ".add-consumer-advanced > summary"), "Advanced");

    // Above the engine's limit (a Java int, docs/scenario-format.md): named with the value typed.
    type_into(&root, "#consumer-max-poll-records", "3000000000");
    yew::scheduler::flush().await;
    submit_form(&root);
    until_present(&root, "#consumer-max-poll-records-error").await;
    assert!(shared.borrow().sim().consumers().is_empty(), "nothing added");
    let error = text_of(&root, "#consumer-max-poll-records-error");
    assert!(
        error.contains("max.poll.records") && error.contains("3000000000") && error.contains("2147483647"),
        "{error}"
    );
    assert_eq!(
        value_of(&root, "#consumer-max-poll-records"),
        "3000000000",
        "kept"
    );
    assert!(advanced.open(), "opened where the error is");

    // Good values reach the consumer the engine runs.
    type_into(&root, "#consumer-max-poll-records", "7");
    choose(&root, "#consumer-group-protocol", "consumer");
    type_into(&root, "#consumer-commit-interval", "1500");
    type_into(&root, "#consumer-max-poll", "60000");
    yew::scheduler::flush().await;
    submit_form(&root);
    yew::scheduler::flush().await;
    {
        let mut w = shared.borrow_mut();
        let view = w.view();
        assert_eq!(view.consumers.len(), 1);
        let cfg = &view.consumers[0].config;
        assert_eq!(cfg.max_poll_records, 7);
        assert_eq!(
            cfg.commit,
            rebalance_engine::client::CommitMode::Auto { interval_ms: 1500 }
        );
        assert_eq!(cfg.max_poll_interval_ms, 60_000);
        assert_eq!(cfg.group_protocol, rebalance_engine::GroupProtocol::Consumer);
    }
    choose(&root, "#consumer-group-protocol", "classic");
    choose(&root, "#consumer-commit-mode", "never");
    yew::scheduler::flush().await;
    assert!(
        root.query_selector("#consumer-commit-interval")
            .unwrap()
            .is_none(),
        "no interval without auto-commit"
    );
    submit_form(&root);
    yew::scheduler::flush().await;
    assert_eq!(
        shared.borrow_mut().view().consumers[1].config.commit,
        rebalance_engine::client::CommitMode::Never
    );

    // A start setting above the engine's limit: its message, at the field; the draft is kept.
    let latency = "#start-network-latency-ms";
    type_into(&root, latency, "99999999");
    yew::scheduler::flush().await;
    button(&root, "Apply and replay from 0").click();
    until_present(&root, "#start-network-latency-ms-error").await;
    let error = text_of(&root, "#start-network-latency-ms-error");
    assert!(error.contains("99999999") && error.contains("3600000"), "{error}");
    assert_eq!(value_of(&root, latency), "99999999");
    assert_eq!(
        shared.borrow().session().base().network.latency_ms,
        200,
        "not applied"
    );
    // Good values: a new base scenario with them, the consumers' actions kept.
    type_into(&root, latency, "50");
    type_into(&root, "#start-coordinator-group-initial-rebalance-delay-ms", "0");
    yew::scheduler::flush().await;
    button(&root, "Apply and replay from 0").click();
    yew::scheduler::flush().await;
    {
        let w = shared.borrow();
        assert_eq!(w.session().base().network.latency_ms, 50);
        assert_eq!(w.coordinator_config().group_initial_rebalance_delay_ms, 0);
        assert_eq!(w.sim().consumers().len(), 2, "the added consumers are replayed");
    }
    assert!(text_of(&root, ".form-status").contains("replayed"));
    app.destroy();
    root.remove();
}

/// Every user-given name (consumer name, client id, instance id, member id, group id) shown in the
/// panels is isolated: no text outside a `<bdi>` holds right-to-left characters, except an SVG
/// text that is the name alone (isolated by CSS) and a `<select>`'s options.
#[wasm_bindgen_test]
async fn every_rtl_name_shown_is_isolated() {
    let group = "مجموعة-الطلبات";
    let name = "مستهلك";
    let json = format!(
        r#"{{"version": 1, "seed": 5, "group_id": "{group}", "end_ms": 15000,
        "topics": [{{"name": "orders", "partitions": 3, "records_per_sec": 5}}],
        "client_defaults": {{"subscription": {{"topics": ["orders"]}}}},
        "consumers": [{{"name": "{name}", "client_id": "عميل", "group_instance_id": "ثابت"}}]}}"#
    );
    let world = rebalance_playground::sharing::open_file(json.len() as f64, &json).expect("it imports");
    let mut pg = rebalance_playground::sharing::playground_with(world);
    pg.selection = Some(rebalance_playground::state::Selection::Consumer(name.into()));
    let root = mount_point();
    let children = html! { <>
        <rebalance_playground::components::Stage />
        <GroupPanel /><GroupStates /><Inspector /><ConsumerList />
        <rebalance_playground::components::EventLog />
        <rebalance_playground::components::SequenceDiagram />
        <rebalance_playground::components::ConsolePanel />
    </> };
    let app = yew::Renderer::<On>::with_root_and_props(root.clone(), OnProps { pg, children }).render();
    yew::scheduler::flush().await;
    let seq = root.query_selector(".sequence > summary").unwrap().unwrap();
    seq.dyn_into::<HtmlElement>().unwrap().click();
    until_present(&root, ".seq-body .seq-msg").await;
    // Every message carries its API's token shape, one shape per API, as on the stage.
    let mut shapes = rebalance_engine::collections::Map::new();
    for msg in all(&root, ".seq-body .seq-msg") {
        let api = msg.get_attribute("data-api").unwrap();
        let glyph = msg.query_selector(".seq-glyph").unwrap().expect("a glyph");
        let d = glyph.get_attribute("d").unwrap();
        assert_eq!(
            shapes.entry(api.clone()).or_insert_with(|| d.clone()),
            &d,
            "{api}"
        );
    }
    for (api, d) in &shapes {
        let api = rebalance_engine::protocol::Api::ALL
            .into_iter()
            .find(|a| a.name() == api)
            .expect("a known API");
        assert_eq!(d, rebalance_playground::style::api_shape(api), "{api:?}");
    }
    type_into(
        &root,
        "#console-line",
        &format!("kafka-consumer-groups.sh --bootstrap-server localhost:9092 --describe --group {group} --members --verbose"),
    );
    yew::scheduler::flush().await;
    button(&root, "Run").click();
    until_present(&root, ".console-stdout").await;

    let rtl = |c: char| ('\u{0590}'..='\u{08ff}').contains(&c);
    let mut checked = 0;
    let mut bad = Vec::new();
    for parent in all(&root, "*") {
        let children = parent.child_nodes();
        for i in 0..children.length() {
            let Some(node) = children.get(i) else { continue };
            if node.node_type() != web_sys::Node::TEXT_NODE {
                continue;
            }
            let text = node.text_content().unwrap_or_default();
            if !text.chars().any(rtl) {
                continue;
            }
            checked += 1;
            let ok = parent.tag_name().eq_ignore_ascii_case("bdi")
                || parent.closest("option, title").unwrap().is_some()
                || parent.matches(".stage-consumer-name, .seq-lane-name").unwrap();
            if !ok {
                bad.push(format!("<{}> {text:?}", parent.tag_name()));
            }
        }
    }
    assert!(checked > 10, "the names are shown ({checked} texts)");
    assert!(bad.is_empty(), "not isolated: {bad:#?}");
    // The console's answer names the group, the consumer's client id and instance id.
    let answer = text_of(&root, ".console-stdout");
    assert!(
        answer.contains(group) && answer.contains("عميل") && answer.contains("ثابت"),
        "{answer}"
    );
    app.destroy();
    root.remove();
}

// ======================================================== the consumer protocol drawn (issue 17)

/// A consumer-protocol config (the compare mode's derivation of the playground's default).
fn kip848_consumer(name: &str) -> rebalance_engine::ConsumerConfig {
    rebalance_engine::compare::Protocol::Consumer.derive_config(&default_consumer(name))
}

/// The group panel, its states and the consumer list over a paused playground where two
/// consumer-protocol consumers are Stable and a third joins: the world is stepped until some
/// member still has to revoke a partition (the new one waits for it).
/// Two consumer-protocol consumers Stable, then C3 joins; the world steps until `stop` holds.
fn kip848_join(
    w: &mut rebalance_playground::world::World,
    stop: impl Fn(&rebalance_engine::session::ConsumerGroupFacts) -> bool,
) -> Option<rebalance_engine::session::ConsumerGroupFacts> {
    for name in ["C1", "C2"] {
        w.apply(Command::AddConsumer(Box::new(kip848_consumer(name))))
            .unwrap();
    }
    for _ in 0..100 {
        w.advance(100.0);
    }
    w.apply(Command::AddConsumer(Box::new(kip848_consumer("C3"))))
        .unwrap();
    for _ in 0..20_000 {
        w.step();
        let g = w.view().group.consumer.unwrap();
        if stop(&g) {
            return Some(g);
        }
    }
    None
}

fn someone_revokes(g: &rebalance_engine::session::ConsumerGroupFacts) -> bool {
    g.members.iter().any(|m| !m.pending_revocation.is_empty())
}

/// C3's join reconciled: three members, each at its target.
fn c3_reconciled(g: &rebalance_engine::session::ConsumerGroupFacts) -> bool {
    g.members.len() == 3
        && g.moves().is_none()
        && g.group_epoch == g.assignment_epoch
        && g.members.iter().all(|m| m.member_epoch == g.assignment_epoch)
}

#[derive(PartialEq, Properties)]
struct Kip848Props {
    lang: Lang,
    /// Stop once C3's join has reconciled, rather than while someone revokes.
    reconciled: bool,
}

/// The group panel, its states and the consumer list over a paused playground where two
/// consumer-protocol consumers are Stable and a third joins: the world is stepped until some
/// member still has to revoke a partition (the new one waits for it), or until all reconciled.
#[component]
fn Kip848Cards(props: &Kip848Props) -> Html {
    let pg = use_reducer(|| Playground::new(3, false));
    {
        let pg = pg.clone();
        let reconciled = props.reconciled;
        use_effect_with((), move |_| {
            {
                let mut w = pg.world.borrow_mut();
                let stop = if reconciled {
                    c3_reconciled
                } else {
                    someone_revokes
                };
                kip848_join(&mut w, stop);
            }
            pg.dispatch(Change::Refresh);
        });
    }
    html! {
        <ContextProvider<Lang> context={props.lang}>
            <ContextProvider<PlaygroundContext> context={pg}>
                <GroupPanel />
                <GroupStates />
                <ConsumerList />
                <rebalance_playground::components::Announcer />
            </ContextProvider<PlaygroundContext>>
        </ContextProvider<Lang>>
    }
}

fn mount_kip848_cards(root: &Element, lang: Lang, reconciled: bool) -> yew::AppHandle<Kip848Cards> {
    yew::Renderer::<Kip848Cards>::with_root_and_props(root.clone(), Kip848Props { lang, reconciled }).render()
}

/// Once C3's join has reconciled the group is Stable and nothing moves, and the explanation still
/// says, in the past, what that rebalance moved and that nobody stopped.
#[wasm_bindgen_test]
async fn a_reconciled_consumer_group_still_says_what_its_last_rebalance_moved() {
    for lang in [Lang::En, Lang::Zh] {
        let s = lang.strings();
        let root = mount_point();
        let app = mount_kip848_cards(&root, lang, true);
        until_present(&root, "[data-testid=kip848-moves].is-past").await;
        let mut w = rebalance_playground::world::World::new(3);
        let group = kip848_join(&mut w, c3_reconciled).expect("C3's join reconciles");
        let change = group.last_target_change.clone().expect("a last target");
        let text = text_of(&root, "[data-testid=kip848-moves]");
        assert_eq!(
            text,
            rebalance_playground::explain_consumer::last_change_sentence(s, &change)
        );
        let head: String = s.kip848_view.last_only_moved.chars().take(4).collect();
        assert!(text.starts_with(&head), "{text}");
        assert!(text.contains(&change.epoch.to_string()), "{text}");
        for mv in &change.moves.moved {
            assert!(text.contains(&mv.partition.to_string()), "{text}");
        }
        assert!(change.moves.moved.iter().any(|m| m.to.as_deref() == Some("C3")));
        app.destroy();
        root.remove();
    }
}

#[wasm_bindgen_test]
async fn a_consumer_protocol_card_draws_its_member_epoch_state_and_partitions() {
    use rebalance_engine::coordinator::consumer::ConsumerGroupState;
    for lang in [Lang::En, Lang::Zh] {
        let s = lang.strings();
        let root = mount_point();
        let app = mount_kip848_cards(&root, lang, false);
        until_present(&root, ".pchip.is-revoke").await;
        // The engine's facts the page must show: read from a world stepped the same way.
        let mut w = rebalance_playground::world::World::new(3);
        let group = kip848_join(&mut w, someone_revokes);
        let group = group.expect("a member has to revoke");
        // The group strip: a consumer group's state and epochs, no generation, no leader.
        assert_eq!(
            root.query_selector("[data-testid=group-state]")
                .unwrap()
                .unwrap()
                .get_attribute("data-state")
                .as_deref(),
            Some(group.state.name())
        );
        assert_ne!(group.state, ConsumerGroupState::Empty);
        assert_eq!(
            text_of(&root, "[data-testid=group-epoch]"),
            group.group_epoch.to_string()
        );
        assert_eq!(
            text_of(&root, "[data-testid=assignment-epoch]"),
            group.assignment_epoch.to_string()
        );
        assert!(root.query_selector("[data-testid=generation]").unwrap().is_none());
        assert!(root.query_selector("[data-testid=leader]").unwrap().is_none());
        // The screen reader hears the same: the epochs, no generation and no leader.
        use rebalance_playground::components::StateLook;
        let heard = text_of(&root, "[data-testid=announcer]");
        let want = rebalance_playground::i18n::fill(
            s.kip848_view.announce,
            &[
                ("state", group.state.label(s)),
                ("epoch", &group.group_epoch.to_string()),
                ("target", &group.assignment_epoch.to_string()),
            ],
        );
        assert_eq!(heard, want);
        // Its own state diagram, the current state lit.
        let lit = all(
            &root,
            "[data-testid=consumer-state-diagram] .state-node.is-current",
        );
        assert_eq!(lit.len(), 1);
        assert_eq!(
            lit[0].get_attribute("data-state").as_deref(),
            Some(group.state.name())
        );
        // Every member's card: its member epoch, its state by Kafka's name, its partitions drawn
        // as kept / to revoke / awaited, one chip each.
        for m in &group.members {
            let name = m.consumer.clone().unwrap();
            let card = root
                .query_selector(&format!("[data-consumer={name}]"))
                .unwrap()
                .expect("a card");
            assert_eq!(
                text_of(&card, "[data-testid=member-epoch]"),
                m.member_epoch.to_string()
            );
            let state = card
                .query_selector("[data-testid=member-reconcile-state]")
                .unwrap()
                .unwrap();
            assert_eq!(state.get_attribute("data-state").as_deref(), Some(m.state.name()));
            assert!(state.text_content().unwrap().contains(m.state.name()));
            let behind = card.query_selector("[data-testid=member-epoch-behind]").unwrap();
            assert_eq!(
                behind.is_some(),
                m.member_epoch < group.assignment_epoch,
                "{name}"
            );
            for (kind, parts) in [
                ("kept", &m.keeping),
                ("revoke", &m.giving_up),
                ("awaiting", &m.awaiting),
            ] {
                let chips: Vec<String> = all(&card, &format!(".pchip[data-kind={kind}]"))
                    .iter()
                    .map(|c| c.get_attribute("data-part").unwrap())
                    .collect();
                let want: Vec<String> = parts.iter().map(ToString::to_string).collect();
                assert_eq!(chips, want, "{name}: {kind}");
                // Each kind has its own glyph, not colour alone.
                for chip in all(&card, &format!(".pchip[data-kind={kind}]")) {
                    assert!(chip.query_selector("svg path").unwrap().is_some());
                }
            }
            let strip = card
                .query_selector("[data-testid=partition-strip]")
                .unwrap()
                .unwrap();
            assert_eq!(strip.get_attribute("role").as_deref(), Some("img"));
            let label = strip.get_attribute("aria-label").unwrap();
            assert!(label.contains(&name), "{label}");
        }
        // Someone revokes and someone waits: both are on the page, and the explanation names
        // what moves in this language.
        assert!(!all(&root, ".pchip[data-kind=revoke]").is_empty());
        assert!(!all(&root, ".pchip[data-kind=awaiting]").is_empty());
        let moves = text_of(&root, "[data-testid=kip848-moves]");
        let m = group.moves().expect("something moves");
        let moved = &m.moved[0];
        assert!(moves.contains(&moved.partition.to_string()), "{moves}");
        let head: String = s.kip848_view.only_moved.chars().take(4).collect();
        assert!(moves.starts_with(&head), "{moves}");
        app.destroy();
        root.remove();
    }
}

#[derive(PartialEq, Properties)]
struct CgDiagramProps {
    lang: Lang,
    current: rebalance_engine::coordinator::consumer::ConsumerGroupState,
    last: Option<(
        rebalance_engine::coordinator::consumer::ConsumerGroupState,
        rebalance_engine::coordinator::consumer::ConsumerGroupState,
    )>,
}

#[component]
fn CgDiagram(props: &CgDiagramProps) -> Html {
    use rebalance_playground::components::ConsumerStateDiagram;
    html! {
        <ContextProvider<Lang> context={props.lang}>
            <ConsumerStateDiagram current={props.current} last={props.last} transition_key={3} />
        </ContextProvider<Lang>>
    }
}

#[wasm_bindgen_test]
async fn the_consumer_state_diagram_lights_the_state_and_draws_the_engines_transitions() {
    use rebalance_engine::coordinator::consumer::ConsumerGroupState as S;
    for (lang, current, last) in [
        (Lang::En, S::Reconciling, Some((S::Stable, S::Reconciling))),
        (Lang::Zh, S::Assigning, Some((S::Stable, S::Assigning))),
        (Lang::En, S::Empty, None),
    ] {
        let root = mount_point();
        yew::Renderer::<CgDiagram>::with_root_and_props(root.clone(), CgDiagramProps { lang, current, last })
            .render();
        until_present(&root, "[data-testid=consumer-state-diagram]").await;
        let s = lang.strings();
        let boxes = all(&root, ".state-node");
        assert_eq!(boxes.len(), S::DERIVED.len());
        let lit = all(&root, ".state-node.is-current");
        assert_eq!(lit.len(), 1);
        assert_eq!(
            lit[0].get_attribute("data-state").as_deref(),
            Some(current.name())
        );
        assert_eq!(lit[0].get_attribute("aria-current").as_deref(), Some("step"));
        assert!(lit[0].text_content().unwrap().contains(s.current_state));
        // The arrows are the engine's list, each once.
        let edges: Vec<(String, String)> = all(&root, ".state-edge")
            .iter()
            .map(|e| {
                (
                    e.get_attribute("data-from").unwrap(),
                    e.get_attribute("data-to").unwrap(),
                )
            })
            .collect();
        let listed: Vec<(String, String)> = S::transitions()
            .map(|(f, t)| (f.name().to_owned(), t.name().to_owned()))
            .collect();
        assert_eq!(edges, listed);
        let bold = all(&root, ".state-edge.is-last");
        match last {
            Some((f, t)) => {
                assert_eq!(bold.len(), 1);
                assert_eq!(bold[0].get_attribute("data-from").as_deref(), Some(f.name()));
                assert_eq!(bold[0].get_attribute("data-to").as_deref(), Some(t.name()));
            }
            None => assert!(bold.is_empty()),
        }
        let svg = root.query_selector("svg").unwrap().unwrap();
        assert_eq!(
            svg.get_attribute("aria-label").as_deref(),
            Some(s.kip848_view.diagram_label)
        );
        root.remove();
    }
}

#[derive(PartialEq, Properties)]
struct StageIn {
    lang: Lang,
    protocol: rebalance_engine::compare::Protocol,
    group: std::rc::Rc<rebalance_engine::GroupView>,
    consumers: std::rc::Rc<Vec<rebalance_engine::ConsumerView>>,
    view: std::rc::Rc<rebalance_engine::compare::OwnershipView>,
}

#[component]
fn CompareColumnIn(props: &StageIn) -> Html {
    use rebalance_playground::components::{CompareStage, OwnershipChart};
    html! {
        <ContextProvider<Lang> context={props.lang}>
            <CompareStage protocol={props.protocol} group={props.group.clone()} consumers={props.consumers.clone()} />
            <OwnershipChart view={props.view.clone()} />
        </ContextProvider<Lang>>
    }
}

#[wasm_bindgen_test]
async fn a_compare_column_shows_its_stage_above_its_chart_with_the_consumer_groups_epochs() {
    use rebalance_engine::compare::Protocol;
    use rebalance_engine::SimTime;
    let s = compare_story();
    for (lang, protocol) in [
        (Lang::En, Protocol::Consumer),
        (Lang::Zh, Protocol::Consumer),
        (Lang::En, Protocol::Eager),
    ] {
        let session = s.session(protocol).expect("the variant runs");
        let group = session.group_view();
        let consumers = session.consumers();
        let view = s.ownership(protocol, SimTime::ZERO).unwrap();
        let root = mount_point();
        yew::Renderer::<CompareColumnIn>::with_root_and_props(
            root.clone(),
            StageIn {
                lang,
                protocol,
                group: std::rc::Rc::new(group.clone()),
                consumers: std::rc::Rc::new(consumers.clone()),
                view: std::rc::Rc::new(view.clone()),
            },
        )
        .render();
        let heading_sel = format!("[data-testid=compare-group-{}]", protocol.key());
        until_present(&root, &heading_sel).await;
        let heading = root.query_selector(&heading_sel).unwrap().unwrap();
        let text = heading.text_content().unwrap();
        let strings = lang.strings();
        match &group.consumer {
            Some(c) => {
                // The consumer protocol's own state and epochs: never "generation".
                assert_eq!(protocol, Protocol::Consumer);
                assert_eq!(
                    heading.get_attribute("data-state").as_deref(),
                    Some(c.state.name())
                );
                assert_eq!(
                    heading.get_attribute("data-group-epoch"),
                    Some(c.group_epoch.to_string())
                );
                assert!(text.contains(&c.group_epoch.to_string()), "{text}");
                let epoch_word = strings.kip848_view.group_epoch.to_lowercase();
                assert!(text.to_lowercase().contains(&epoch_word), "{text}");
                let running = |n: &str| consumers.iter().any(|x| x.name == n && x.lifecycle.is_running());
                for m in c
                    .members
                    .iter()
                    .filter(|m| m.consumer.as_deref().is_some_and(running))
                {
                    let name = m.consumer.clone().unwrap();
                    let chip = root
                        .query_selector(&format!(".compare-consumer[data-consumer={name}]"))
                        .unwrap()
                        .expect("a chip");
                    assert!(text_of(&chip, "[data-testid=compare-member-epoch]")
                        .contains(&m.member_epoch.to_string()));
                    assert_eq!(all(&chip, ".pchip[data-kind=kept]").len(), m.keeping.len());
                }
            }
            None => {
                assert_eq!(protocol, Protocol::Eager);
                assert!(text.contains(&group.generation.to_string()));
            }
        }
        // One chip per consumer; under it, the chart's lanes.
        assert_eq!(all(&root, ".compare-consumer").len(), consumers.len());
        assert_eq!(all(&root, ".compare-lane").len(), view.lanes.len());
        root.remove();
    }
}
