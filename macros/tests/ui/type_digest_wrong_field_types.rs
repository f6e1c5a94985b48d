use specmint_macros::Validate;

struct Encoding;

#[derive(Validate)]
#[validate(digest(sha256 = sha256, data = data, encoding = encoding, length = bytes))]
struct S {
    data: String,
    encoding: Encoding,
    sha256: Option<u32>,
    bytes: String,
}
fn main() {}
