//! `nested`: inner values at their own paths, `Option`s of them, `nested(flatten)`, generic
//! structs.

use super::*;

#[test]
fn nested_option() {
    let mut p = valid();
    p.lead = Some(c("", "ok"));
    assert_eq!(
        violations(&p),
        [v(
            "blank_field",
            "lead.id",
            "/lead/id",
            "`lead.id` must not be blank"
        )]
    );
}

#[derive(Validate)]
struct Generic<T: specmint_runtime::Validate> {
    #[validate(nested)]
    inner: T,
    #[validate(non_blank)]
    name: &'static str,
}

#[test]
fn generic_struct() {
    let g = Generic {
        inner: vec![c("", "x")],
        name: "",
    };
    let codes: Vec<_> = g.validate().unwrap_err().codes().collect();
    assert_eq!(codes, ["blank_field", "blank_field"]);
}

mod flatten {
    use specmint_runtime::Validate;

    /// Members that sit beside the owner's own in the JSON (a flattened or hand-read value).
    struct Body {
        inner: Inner,
    }

    #[derive(specmint_macros::Validate)]
    struct Inner {
        #[validate(non_blank)]
        name: String,
    }

    impl Validate for Body {
        fn validate_at(
            &self,
            path: &specmint_runtime::Path<'_>,
            report: &mut specmint_runtime::Report,
        ) {
            Validate::validate_at(&self.inner, &path.field("inner"), report);
        }
    }

    #[derive(specmint_macros::Validate)]
    struct Owner {
        #[validate(nested(flatten))]
        body: Body,
        #[validate(nested)]
        kept: Inner,
    }

    #[test]
    fn nested_flatten_reports_at_the_owners_path_not_the_fields() {
        let owner = Owner {
            body: Body {
                inner: Inner { name: " ".into() },
            },
            kept: Inner {
                name: String::new(),
            },
        };
        let report = owner.validate().unwrap_err();
        let paths: Vec<&str> = report.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(paths, ["inner.name", "kept.name"]);
        assert_eq!(report.as_slice()[0].pointer, "/inner/name");
        assert_eq!(
            report.as_slice()[0].message,
            "`inner.name` must not be blank"
        );
    }
}
