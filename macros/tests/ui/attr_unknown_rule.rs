use specmint_macros::Validate;

#[derive(Validate)]
struct S {
    #[validate(non_blnk)]
    name: String,
}

// The stub `impl Validate` emitted on error keeps this call from adding a second error.
fn main() {
    let _ = specmint_runtime::Validate::validate(&S { name: String::new() });
}
