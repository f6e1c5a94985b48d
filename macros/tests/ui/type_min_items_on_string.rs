use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(min_items = 1)]
    name: String,
}
fn main() {}
