use specmint_macros::Validate;

// Each misspelt rule or argument names the one it is close to.
#[derive(Validate)]
#[validate(not_equl(a = from_role, b = to_role))]
struct S {
    from_role: String,
    to_role: String,
    #[validate(max_chars(max = 3, cdoe = "too_long"))]
    title: String,
    #[validate(each(max_chrs = 3))]
    tags: Vec<String>,
    #[validate(requried)]
    note: Option<String>,
}
fn main() {}
