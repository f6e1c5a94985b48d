use specmint_macros::Validate;

#[derive(Validate)]
struct Item {
    id: String,
    tags: Vec<String>,
}

#[derive(Validate)]
struct S {
    #[validate(unique_by(key = (id, tags)))]
    items: Vec<Item>,
}
fn main() {}
