use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(decimal_range)]
    a: u32,
    #[validate(decimal_range(min = 0.5))]
    b: u32,
    #[validate(decimal_range(min = "0", above = "0"))]
    c: u32,
    #[validate(decimal_range(max = "1,5"))]
    d: u32,
    #[validate(scale(precision = 5))]
    e: u32,
}
fn main() {}
