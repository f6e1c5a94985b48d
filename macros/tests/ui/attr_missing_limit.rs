use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(max_chars)]
    name: String,
}
fn main() {}
