use specmint_macros::Validate;

#[derive(Validate)]
struct A {
    #[validate(required = true)]
    a: Option<String>,
    #[validate(required(when = b))]
    b: Option<String>,
    #[validate(required, required)]
    c: Option<String>,
}
fn main() {}
