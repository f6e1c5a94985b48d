use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(unique)]
    ids: Vec<u32>,
}
fn main() {}
