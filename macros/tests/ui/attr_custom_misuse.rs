use specmint_macros::Validate;

#[derive(Validate)]
#[validate(custom)]
struct S {
    #[validate(custom = "checks::a")]
    a: String,
    #[validate(custom(code = "x"))]
    b: String,
}
fn main() {}
