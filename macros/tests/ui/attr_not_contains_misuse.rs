use specmint_macros::Validate;

#[derive(Validate)]
#[validate(not_contains(list = depends, value = task_id))]
#[validate(not_contains(list = depends_on))]
struct A {
    task_id: String,
    #[validate(not_contains(list = depends_on, value = task_id))]
    depends_on: Vec<String>,
}
fn main() {}
