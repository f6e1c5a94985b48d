//! What the expansion stands on: it compiles in a module that shadows the prelude (for every
//! rule), and `#[validate(crate = "..")]` points it at a re-exported runtime.

use super::*;

/// A module that shadows prelude names and the names the runtime uses: every rule must
/// still expand.
mod hygiene {
    #![allow(dead_code)]
    use specmint_macros::Validate;

    struct Result;
    struct Option;
    struct Vec;
    struct String;
    struct Some;
    struct None;
    struct Ok;
    mod core {}
    mod std {}
    fn drop() {}
    struct OnceLock;
    struct Pattern;

    /// Text, list and count rules.
    #[derive(Validate)]
    #[validate(not_equal(a = a, b = b))]
    pub struct Counted {
        #[validate(non_blank, max_chars = 3)]
        pub a: ::std::string::String,
        #[validate(each(non_blank))]
        pub list: ::std::option::Option<::std::vec::Vec<::std::string::String>>,
        #[validate(unique_by(key = a))]
        pub items: ::std::vec::Vec<Counted>,
        pub b: ::std::string::String,
    }

    /// Value, presence and content rules.
    #[derive(Validate)]
    #[validate(not_contains(list = list, value = a))]
    #[validate(digest(sha256 = sum, data = a, encoding = a, label = a, length = n))]
    pub struct Matched {
        #[validate(equals(value = "x"), pattern(regex = "^x$"), relative_path)]
        pub a: ::std::string::String,
        #[validate(required, unique)]
        pub list: ::std::option::Option<::std::vec::Vec<::std::string::String>>,
        #[validate(required_if(field = a, equals = "y"))]
        pub sum: ::std::option::Option<::std::string::String>,
        pub n: ::std::option::Option<u64>,
    }
}

#[test]
fn hygiene_with_shadowed_prelude() {
    let counted = hygiene::Counted {
        a: "abcd".into(),
        list: Some(vec!["".into()]),
        items: vec![],
        b: "abcd".into(),
    };
    let codes: Vec<_> = counted.validate().unwrap_err().codes().collect();
    assert_eq!(codes, ["field_too_long", "blank_field", "fields_equal"]);

    let matched = hygiene::Matched {
        a: "x".into(),
        list: Some(vec!["x".into(), "x".into()]),
        sum: Some("0".into()),
        n: None,
    };
    let codes: Vec<_> = matched.validate().unwrap_err().codes().collect();
    // The encoding (`x`) is neither `utf8` nor `base64`: `digest` checks nothing.
    assert_eq!(codes, ["duplicate_item", "contains_self", "contains_self"]);
}

/// A facade re-exporting the runtime under another path.
mod facade {
    pub use specmint_runtime as runtime;
}

#[derive(Validate)]
#[validate(crate = "facade::runtime")]
struct ViaFacade {
    #[validate(non_blank)]
    name: String,
}

#[test]
fn crate_attribute_points_at_a_reexport() {
    let e = ViaFacade {
        name: String::new(),
    }
    .validate()
    .unwrap_err();
    assert_eq!(e.to_string(), "blank_field: `name` must not be blank");
}
