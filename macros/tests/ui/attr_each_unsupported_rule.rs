use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(each(non_blank, max_items = 3))]
    tags: Vec<String>,
}
fn main() {}
