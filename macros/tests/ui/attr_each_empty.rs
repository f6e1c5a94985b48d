use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(each())]
    tags: Vec<String>,
}
fn main() {}
