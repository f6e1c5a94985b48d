use specmint_macros::Validate;

#[derive(Validate)]
#[validate(max_json_bytes)]
struct S {
    #[validate(non_blank(code = 1), max_chars(max = 5, max = 6))]
    name: String,
    #[validate(nested(deep), bogus)]
    other: String,
}
fn main() {}
