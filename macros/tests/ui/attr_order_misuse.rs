use specmint_macros::Validate;

#[derive(Validate)]
#[validate(order(a = from, b = from, strict), order(a = from, b = untill, strict = true))]
struct Window {
    from: u32,
    until: u32,
}

fn main() {}
