use specmint_macros::Validate;

#[derive(Validate)]
#[validate(max_json_bytes = 100)]
struct S {
    name: String,
}
fn main() {}
