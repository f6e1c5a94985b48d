use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(min_chars)]
    a: String,
    #[validate(min_items(max = 2))]
    b: Vec<String>,
    #[validate(each(min_items = 1))]
    c: Vec<String>,
}
fn main() {}
