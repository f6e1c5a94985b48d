use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(pattern(regex = "^[0-9]+$"))]
    count: u32,
}
fn main() {}
