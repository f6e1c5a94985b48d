use specmint_macros::Validate;

#[derive(Validate)]
#[validate(digest(sha256 = sha256, data = data, label = title, length = size, algo = md5))]
struct A {
    name: String,
    encoding: String,
    data: String,
    sha256: Option<String>,
}


#[derive(Validate)]
#[validate(digest(sha256 = sum, data = data, encoding = encoding, label = title, length = size))]
struct B {
    encoding: String,
    data: String,
    sha256: Option<String>,
}
fn main() {}
