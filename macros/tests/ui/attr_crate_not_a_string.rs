use specmint_macros::Validate;

#[derive(Validate)]
#[validate(crate = specmint_runtime)]
struct S {
    name: String,
}
fn main() {}
