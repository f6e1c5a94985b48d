use specmint_macros::Validate;
use specmint_runtime::{Path, Report};

fn check_text(_: &String, _: &Path<'_>, _: &mut Report) {}

#[derive(Validate)]
struct S {
    #[validate(custom = check_text)]
    count: u32,
}
fn main() {}
