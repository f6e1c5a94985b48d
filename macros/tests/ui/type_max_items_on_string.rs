use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(max_items = 3)]
    name: String,
}
fn main() {}
