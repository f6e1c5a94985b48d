use specmint_macros::Validate;

#[derive(Validate)]
enum E {
    A,
    B,
}
fn main() {}
