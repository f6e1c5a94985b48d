use specmint_macros::Validate;

#[derive(Validate)]
struct Item {
    kind: u8,
    value: String,
}

#[derive(Validate)]
struct S {
    #[validate(contradiction(by = kind, value = value, pair(1)))]
    items: Vec<Item>,
}
fn main() {}
