use specmint_macros::Validate;

#[derive(Validate)]
union U {
    a: u32,
    b: f32,
}
fn main() {}
