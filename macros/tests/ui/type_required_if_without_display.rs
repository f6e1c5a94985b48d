use specmint_macros::Validate;

#[derive(PartialEq)]
enum Kind {
    A,
}

#[derive(Validate)]
struct S {
    kind: Kind,
    #[validate(required_if(field = kind, equals = Kind::A))]
    reason: Option<String>,
}
fn main() {}
