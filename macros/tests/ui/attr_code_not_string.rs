use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(non_blank(code = 5))]
    name: String,
}
fn main() {}
