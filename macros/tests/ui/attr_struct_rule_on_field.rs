use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(not_equal(a = name, b = other))]
    name: String,
    other: String,
}
fn main() {}
