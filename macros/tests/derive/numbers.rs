//! Integer rules: `range` on a field, through `Option`, and inside `each(..)`.

use super::*;

const MAX_RETRIES: u32 = 10;

#[derive(Clone, Debug, Validate)]
struct Job {
    #[validate(range(min = 1, max = MAX_RETRIES))]
    retries: u32,
    #[validate(range(min = -5, code = "too_cold"))]
    offset: Option<i32>,
    #[validate(range(max = 18446744073709551615))]
    budget: u64,
    #[validate(max_items = 3, each(range(min = 0, max = 100)))]
    scores: Vec<i64>,
}

fn job() -> Job {
    Job {
        retries: 1,
        offset: None,
        budget: u64::MAX,
        scores: vec![0, 100],
    }
}

#[test]
fn bounds_are_inclusive() {
    assert_eq!(violations(&job()), []);
    let mut j = job();
    j.retries = MAX_RETRIES;
    j.offset = Some(-5);
    assert_eq!(violations(&j), []);
}

#[test]
fn each_crossed_bound_is_reported_with_its_numbers() {
    let mut j = job();
    j.retries = 0;
    j.offset = Some(-6);
    j.scores = vec![101, 5, -1];
    assert_eq!(
        violations(&j),
        [
            v(
                "out_of_range",
                "retries",
                "/retries",
                "`retries` is 0 (min 1)"
            )
            .with_numbers(0, 1),
            v("too_cold", "offset", "/offset", "`offset` is -6 (min -5)"),
            v(
                "out_of_range",
                "scores[0]",
                "/scores/0",
                "`scores[0]` is 101 (max 100)"
            )
            .with_numbers(101, 100),
            v(
                "out_of_range",
                "scores[2]",
                "/scores/2",
                "`scores[2]` is -1 (min 0)"
            ),
        ]
    );
    j = job();
    j.retries = 11;
    assert_eq!(
        violations(&j),
        [v(
            "out_of_range",
            "retries",
            "/retries",
            "`retries` is 11 (max 10)"
        )
        .with_numbers(11, 10)]
    );
}
