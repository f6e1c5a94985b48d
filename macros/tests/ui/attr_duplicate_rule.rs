use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(non_blank, max_chars = 10)]
    #[validate(max_chars = 20)]
    name: String,
}
fn main() {}
