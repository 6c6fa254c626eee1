//! Component tests, in headless Chromium: `cargo test --target wasm32-unknown-unknown`.
#![cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]

use rebalance_playground::components::{GroupPanel, GroupStateId, StateDiagram};
use rebalance_playground::i18n::Lang;
use rebalance_playground::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element to render into, so that tests do not see each other's output.
fn mount_point() -> Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div
}

fn text_of(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
        .text_content()
        .unwrap_or_default()
}

#[derive(PartialEq, Properties)]
struct InLangProps {
    lang: Lang,
}

#[component]
fn PanelIn(props: &InLangProps) -> Html {
    html! { <ContextProvider<Lang> context={props.lang}><GroupPanel /></ContextProvider<Lang>> }
}

#[wasm_bindgen_test]
async fn group_panel_shows_a_new_group_in_each_language() {
    let root = mount_point();
    yew::Renderer::<PanelIn>::with_root_and_props(root.clone(), InLangProps { lang: Lang::En }).render();
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "[data-testid=group-state]"), "Empty");
    assert_eq!(text_of(&root, "[data-testid=generation]"), "0");

    let root = mount_point();
    yew::Renderer::<PanelIn>::with_root_and_props(root.clone(), InLangProps { lang: Lang::Zh }).render();
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "[data-testid=group-state]"), "空（Empty）");
    assert!(text_of(&root, "h2").contains("消费者组"));
}

#[derive(PartialEq, Properties)]
struct DiagramProps {
    current: GroupStateId,
}

#[component]
fn Diagram(props: &DiagramProps) -> Html {
    html! { <StateDiagram current={props.current} /> }
}

#[wasm_bindgen_test]
async fn state_diagram_marks_exactly_the_current_state_in_words() {
    let root = mount_point();
    yew::Renderer::<Diagram>::with_root_and_props(
        root.clone(),
        DiagramProps {
            current: GroupStateId::Stable,
        },
    )
    .render();
    yew::scheduler::flush().await;
    let nodes = root.query_selector_all("li.state-node").unwrap();
    assert_eq!(nodes.length(), 5, "one node per Kafka group state");
    let current = root.query_selector_all("[aria-current=step]").unwrap();
    assert_eq!(current.length(), 1);
    let current = current.get(0).unwrap().text_content().unwrap();
    assert!(current.starts_with("Stable"), "lit node was {current:?}");
    assert!(
        current.contains("current state"),
        "the current state is said in words, not only colour"
    );
}

#[wasm_bindgen_test]
async fn language_switch_translates_the_app_and_the_document() {
    let root = mount_point();
    yew::Renderer::<App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;

    let button = |name: &str| -> HtmlElement {
        let buttons = root.query_selector_all(".lang-switch button").unwrap();
        (0..buttons.length())
            .map(|i| buttons.get(i).unwrap().dyn_into::<HtmlElement>().unwrap())
            .find(|b| b.text_content().as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no {name} button"))
    };

    button("English").click();
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "h1"), "Kafka Rebalance Playground");
    assert_eq!(
        button("English").get_attribute("aria-pressed").as_deref(),
        Some("true")
    );

    button("中文").click();
    yew::scheduler::flush().await;
    assert_eq!(text_of(&root, "h1"), "Kafka 消费者组重平衡演示");
    assert_eq!(
        button("中文").get_attribute("aria-pressed").as_deref(),
        Some("true")
    );
    assert_eq!(
        button("English").get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
    let html = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .document_element()
        .unwrap();
    assert_eq!(html.get_attribute("lang").as_deref(), Some("zh-CN"));
}
