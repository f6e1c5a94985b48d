use specmint_macros::Validate;

#[derive(Validate)]
struct A {
    kind: u8,
    #[validate(required_if(field = knid, equals = 1))]
    a: Option<String>,
    #[validate(required_if(field = kind))]
    b: Option<String>,
    #[validate(required_if(equals = 1))]
    c: Option<String>,
    #[validate(required_if(field = self.kind, equals = 1))]
    d: Option<String>,
    #[validate(required_if)]
    e: Option<String>,
}
fn main() {}
