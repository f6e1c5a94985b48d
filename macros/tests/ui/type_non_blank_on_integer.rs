use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(non_blank)]
    count: u32,
}
fn main() {}
