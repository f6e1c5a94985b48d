use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(max_chars = "ten")]
    name: String,
}
fn main() {}
