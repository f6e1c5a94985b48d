use specmint_macros::Validate;

const RE: &str = "^a$";

#[derive(Validate)]
struct A {
    #[validate(pattern(regex = "^pkg_[a-z"))]
    a: String,
    #[validate(pattern(regex = RE))]
    b: String,
    #[validate(pattern)]
    c: String,
    #[validate(pattern(code = "x"))]
    d: String,
    #[validate(pattern(regex = "(?<name"))]
    e: String,
}
fn main() {}
