//! A field typed by a states table: it holds one of the machine's states (Rust: the states
//! enum; schema: a `$ref` to its `$defs` entry; corpus: every state, and a near miss).

use crate::common;
use serde_json::{json, Value};

const MD: &str = "# Orders v1

## Fields of an `order`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `id` | string | ✔ | Id. |
| `state` | order_state | — (default open) | Where the order is. |
| `history` | order_state[] | — | States it went through. |

## States of an `order_state`

| State | Terminal | Meaning |
|---|---|---|
| `open` | no | Taking items. |
| `paid` | no | Paid. |
| `closed` | yes | Done. |

### Transitions of an `order_state`

| From | To |
|---|---|
| `open` | `paid` |
| * | `closed` |

## Error codes

| Code | When |
|---|---|
| `bad_order` | Not the shape. |
| `state_twice` | A state listed twice. |

```json valid
{\"id\": \"o1\", \"state\": \"paid\"}
```
";

const TOML: &str = "[spec]
root = \"order\"

[errors]
enum = \"OrderError\"
parse = \"bad_order\"

[[unique]]
path = \"history\"
code = \"state_twice\"
";

fn files(md: &str) -> Result<std::collections::BTreeMap<String, String>, String> {
    files_with(md, TOML)
}

fn files_with(md: &str, toml: &str) -> Result<std::collections::BTreeMap<String, String>, String> {
    common::generated("orders", md, toml)
}

#[test]
fn rust_types_the_field_by_the_states_enum_with_its_default() {
    let rust = &files(MD).unwrap()["rust/orders.rs"];
    common::assert_holds(
        rust,
        &[
            "pub state: OrderState,",
            "pub history: ::std::vec::Vec<OrderState>,",
            "OrderState::Open",
            "pub enum OrderState {",
        ],
    );
}

#[test]
fn schema_refers_to_the_states_definition() {
    let schema: Value =
        serde_json::from_str(&files(MD).unwrap()["schema/orders.schema.json"]).unwrap();
    let p = &schema["$defs"]["order"]["properties"];
    assert_eq!(p["state"]["$ref"], "#/$defs/order_state");
    assert_eq!(p["state"]["default"], "open");
    assert_eq!(p["history"]["items"]["$ref"], "#/$defs/order_state");
    assert_eq!(
        schema["$defs"]["order_state"]["enum"],
        json!(["open", "paid", "closed"])
    );
}

#[test]
fn corpus_probes_every_state_and_a_near_miss() {
    let corpus: Value =
        serde_json::from_str(&files(MD).unwrap()["corpus/orders/cases.json"]).unwrap();
    let verdict = |id: &str| {
        let c = corpus["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id}"));
        (c["document"]["state"].clone(), c["errors"].clone())
    };
    assert_eq!(verdict("enum.state.closed"), (json!("closed"), json!([])));
    assert_eq!(
        verdict("enum.state.miss.open.upper"),
        (
            json!("OPEN"),
            json!([{"code": "bad_order", "path": "state"}])
        )
    );
}

#[test]
fn a_default_that_is_no_state_is_reported_at_the_required_cell() {
    let md = MD.replace("— (default open)", "— (default shipped)");
    assert_eq!(
        files(&md).unwrap_err().lines().next().unwrap(),
        "spec/orders.md:8:27: error: default `shipped` is not a value of `order_state`"
    );
}

#[test]
fn a_list_of_states_can_hold_unique_values() {
    let files = files(MD).unwrap();
    let rust = &files["rust/orders.rs"];
    common::assert_holds(
        rust,
        &[
            "#[validate(unique(code = \"state_twice\"))]\n    pub history:",
            "impl ::specmint_runtime::rules::TextField for OrderState {",
        ],
    );
    let schema: Value = serde_json::from_str(&files["schema/orders.schema.json"]).unwrap();
    assert_eq!(
        schema["$defs"]["order"]["properties"]["history"]["uniqueItems"],
        json!(true)
    );
    let corpus: Value = serde_json::from_str(&files["corpus/orders/cases.json"]).unwrap();
    let case = |id: &str| {
        let c = corpus["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id}"));
        (c["document"]["history"].clone(), c["errors"].clone())
    };
    assert_eq!(
        case("unique.history.repeat"),
        (
            json!(["open", "open"]),
            json!([{"code": "state_twice", "path": "history[1]"}])
        )
    );
    assert_eq!(
        case("unique.history.distinct"),
        (json!(["open", "paid"]), json!([]))
    );
}

#[test]
fn an_enum_list_is_compared_as_spelled() {
    let toml = TOML.replace(
        "path = \"history\"\n",
        "path = \"history\"\nignore_case = true\n",
    );
    assert_eq!(
        files_with(MD, &toml).unwrap_err().lines().next().unwrap(),
        "spec/orders.toml:9:8: error: `history` is a list of enum values, compared as spelled"
    );
}

#[test]
fn no_text_impl_for_an_enum_no_unique_list_holds() {
    let toml = TOML.split("[[unique]]").next().unwrap().to_owned();
    let md = MD.replace("| `state_twice` | A state listed twice. |\n", "");
    let rust = &files_with(&md, &toml).unwrap()["rust/orders.rs"];
    assert!(!rust.contains("TextField"), "{rust}");
}
