use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate]
    name: String,
}
fn main() {}
