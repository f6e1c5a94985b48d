use specmint_macros::Validate;

#[derive(Validate)]
#[validate(not_equal(a = from_role, b = to_rol))]
struct S {
    from_role: String,
    to_role: String,
}
fn main() {}
