use specmint_macros::Validate;

#[derive(Validate)]
struct A {
    #[validate(equals)]
    a: String,
    #[validate(equals = "0.1")]
    b: String,
    #[validate(equals(code = "x"))]
    c: String,
    #[validate(equals(value = "0.1", expected = "0.1"))]
    d: String,
    #[validate(equals(value = "0.1", value = "0.2"))]
    e: String,
}
fn main() {}
