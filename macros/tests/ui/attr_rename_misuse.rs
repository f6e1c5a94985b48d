use specmint_macros::Validate;

#[derive(Validate)]
struct A {
    #[validate(non_blank, rename = "x", rename = "y")]
    a: String,
    #[validate(rename = "")]
    b: String,
    #[validate(rename = b)]
    c: String,
    #[validate(rename)]
    d: String,
}
fn main() {}
