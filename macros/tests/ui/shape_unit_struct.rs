use specmint_macros::Validate;

#[derive(Validate)]
struct S;
fn main() {}
