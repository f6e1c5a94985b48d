use specmint_macros::Validate;

#[derive(Validate)]
#[validate(non_blank)]
struct S {
    name: String,
}
fn main() {}
