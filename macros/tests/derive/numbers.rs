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

/// A decimal bound makes the range a number's (`f64`, `f32`, through `Option` and `each`);
/// an integer literal beside it is read as a decimal.
#[test]
fn decimal_bounds_on_numbers() {
    const WEST: f32 = -180.0;
    #[derive(Validate)]
    struct Point {
        #[validate(range(min = -90, max = 90.0))]
        lat: f64,
        #[validate(range(min = WEST, max = 180.0, code = "bad_lon"))]
        lon: Option<f64>,
        #[validate(each(range(min = 0.0, max = 359.5)))]
        headings: Vec<f32>,
    }
    let p = Point {
        lat: -0.0,
        lon: Some(180.0),
        headings: vec![359.5, 0.0],
    };
    assert_eq!(violations(&p), []);
    let p = Point {
        lat: 90.25,
        lon: Some(-180.5),
        headings: vec![359.75, -1e-3],
    };
    assert_eq!(
        violations(&p),
        [
            v("out_of_range", "lat", "/lat", "`lat` is 90.25 (max 90)"),
            v("bad_lon", "lon", "/lon", "`lon` is -180.5 (min -180)"),
            v(
                "out_of_range",
                "headings[0]",
                "/headings/0",
                "`headings[0]` is 359.75 (max 359.5)"
            ),
            v(
                "out_of_range",
                "headings[1]",
                "/headings/1",
                "`headings[1]` is -0.0010000000474974513 (min 0)"
            ),
        ]
    );
}
