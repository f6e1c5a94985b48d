use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(range(min = 1))]
    name: String,
}
fn main() {}
