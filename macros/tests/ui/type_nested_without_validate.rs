use specmint_macros::Validate;

struct Plain {
    name: String,
}

#[derive(Validate)]
struct S {
    #[validate(nested)]
    plain: Plain,
}
fn main() {}
