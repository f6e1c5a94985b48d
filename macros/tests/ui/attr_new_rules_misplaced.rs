use specmint_macros::Validate;

#[derive(Validate)]
#[validate(unique, required)]
struct A {
    id: String,
    #[validate(digest(sha256 = id, data = id, encoding = id))]
    a: Vec<String>,
}
fn main() {}
