use specmint_macros::Validate;

#[derive(Validate)]
#[validate(order(a = from, b = until))]
struct Window {
    from: bool,
    until: bool,
}

fn main() {}
