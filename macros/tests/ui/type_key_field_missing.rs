use specmint_macros::Validate;

#[derive(Validate)]
struct Item {
    id: String,
}

#[derive(Validate)]
struct S {
    #[validate(unique_by(key = idd))]
    items: Vec<Item>,
}
fn main() {}
