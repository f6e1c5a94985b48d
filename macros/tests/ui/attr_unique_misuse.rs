use specmint_macros::Validate;

#[derive(Validate)]
struct A {
    #[validate(unique = true)]
    a: Vec<String>,
    #[validate(unique(key = id))]
    b: Vec<String>,
    #[validate(unique(trim, trim))]
    c: Vec<String>,
    #[validate(unique(ignore_case = true))]
    d: Vec<String>,
}
fn main() {}
