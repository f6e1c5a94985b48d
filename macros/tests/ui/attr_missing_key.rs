use specmint_macros::Validate;

#[derive(Validate)]
struct Item {
    id: String,
}

#[derive(Validate)]
struct S {
    #[validate(unique_by(trim))]
    items: Vec<Item>,
}
fn main() {}
