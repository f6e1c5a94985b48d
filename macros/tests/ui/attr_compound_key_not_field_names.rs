use specmint_macros::Validate;

#[derive(Validate)]
struct Item {
    id: String,
    n: u32,
}

#[derive(Validate)]
struct S {
    #[validate(unique_by(key = (id, id)))]
    repeated: Vec<Item>,
    #[validate(unique_by(key = (id, "n")))]
    literal: Vec<Item>,
}
fn main() {}
