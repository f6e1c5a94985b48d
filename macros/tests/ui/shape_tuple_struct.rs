use specmint_macros::Validate;

#[derive(Validate)]
struct S(String);
fn main() {}
