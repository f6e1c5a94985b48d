use specmint_macros::Validate;

struct Budget {
    _tokens: u32,
}

#[derive(Validate)]
struct S {
    #[validate(required)]
    budget: Option<Budget>,
}
fn main() {}
