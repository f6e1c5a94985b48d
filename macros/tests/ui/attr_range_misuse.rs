use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(range)]
    a: u32,
    #[validate(range())]
    b: u32,
    #[validate(range(min = 1, least = 2))]
    c: u32,
    #[validate(range = 3)]
    d: u32,
}
fn main() {}
