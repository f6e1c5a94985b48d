use specmint_macros::Validate;

#[derive(Validate)]
struct A {
    #[validate(relative_path = true)]
    a: String,
    #[validate(relative_path(allow_absolute))]
    b: String,
    #[validate(relative_path(code = 1))]
    c: String,
}
fn main() {}
