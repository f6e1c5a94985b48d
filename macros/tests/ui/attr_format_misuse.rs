use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(format(kind = "datetime"))]
    a: String,
    #[validate(format)]
    b: String,
    #[validate(format(code = "x"))]
    c: String,
}
fn main() {}
