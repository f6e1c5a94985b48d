use specmint_macros::Validate;

#[derive(Validate)]
struct Item {
    id: String,
}

#[derive(Validate)]
struct S {
    #[validate(unique_by(key = id, ignore_case = true))]
    items: Vec<Item>,
}
fn main() {}
