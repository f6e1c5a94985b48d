use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(max_chars(max = 3, min = 1))]
    name: String,
}
fn main() {}
