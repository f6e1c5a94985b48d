//! Names in paths: serde's `rename` / `rename_all`, `#[validate(rename)]`, raw identifiers,
//! and struct rules naming fields by those names.

use super::*;

#[derive(Validate)]
#[validate(not_equal(a = r#type, b = other, code = "same"))]
struct Raw {
    #[validate(non_blank)]
    r#type: String,
    other: String,
}

#[test]
fn raw_identifiers_are_unprefixed_in_paths() {
    let r = Raw {
        r#type: " ".into(),
        other: " ".into(),
    };
    let got = r.validate().unwrap_err();
    assert_eq!(
        got.as_slice(),
        [
            v("blank_field", "type", "/type", "`type` must not be blank"),
            v(
                "same",
                "other",
                "/other",
                "`other` must differ from `type` (both ` `)"
            ),
        ]
    );
}

#[derive(Serialize, Validate)]
#[serde(rename_all = "camelCase")]
struct Camel {
    #[validate(non_blank)]
    output_format: String,
    #[serde(rename = "taskID")]
    #[validate(non_blank)]
    task_id: String,
    #[validate(non_blank, rename = "explicit")]
    overridden: String,
    #[validate(max_items = 1, each(non_blank))]
    depends_on: Vec<String>,
    #[serde(rename(serialize = "out", deserialize = "inName"))]
    #[validate(non_blank)]
    two_names: String,
    #[validate(non_blank)]
    r#type: String,
}

#[test]
fn paths_use_serde_names() {
    let value = Camel {
        output_format: " ".into(),
        task_id: "".into(),
        overridden: "".into(),
        depends_on: vec!["a".into(), " ".into()],
        two_names: "".into(),
        r#type: "".into(),
    };
    let mut long = v(
        "too_many_items",
        "dependsOn",
        "/dependsOn",
        "`dependsOn` has 2 items (max 1)",
    );
    (long.measured, long.limit) = (Some(2), Some(1));
    assert_eq!(
        violations(&value),
        [
            v(
                "blank_field",
                "outputFormat",
                "/outputFormat",
                "`outputFormat` must not be blank"
            ),
            v(
                "blank_field",
                "taskID",
                "/taskID",
                "`taskID` must not be blank"
            ),
            v(
                "blank_field",
                "explicit",
                "/explicit",
                "`explicit` must not be blank"
            ),
            long,
            v(
                "blank_field",
                "dependsOn[1]",
                "/dependsOn/1",
                "`dependsOn[1]` must not be blank"
            ),
            v(
                "blank_field",
                "inName",
                "/inName",
                "`inName` must not be blank"
            ),
            v("blank_field", "type", "/type", "`type` must not be blank"),
        ]
    );
}

macro_rules! rename_all_case {
    ($name:ident, $rule:literal, $expected:literal) => {
        #[test]
        fn $name() {
            #[derive(Serialize, Validate)]
            #[serde(rename_all = $rule)]
            struct S {
                #[validate(non_blank)]
                the_field_name: String,
            }
            let got = violations(&S {
                the_field_name: String::new(),
            });
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].path, $expected);
            assert_eq!(got[0].pointer, concat!("/", $expected));
            // serde agrees.
            let json = serde_json::to_string(&S {
                the_field_name: "x".into(),
            })
            .unwrap();
            assert_eq!(json, concat!("{\"", $expected, "\":\"x\"}"));
        }
    };
}

rename_all_case!(rename_all_camel, "camelCase", "theFieldName");

rename_all_case!(rename_all_snake, "snake_case", "the_field_name");

rename_all_case!(rename_all_kebab, "kebab-case", "the-field-name");

rename_all_case!(
    rename_all_screaming,
    "SCREAMING_SNAKE_CASE",
    "THE_FIELD_NAME"
);

rename_all_case!(
    rename_all_screaming_kebab,
    "SCREAMING-KEBAB-CASE",
    "THE-FIELD-NAME"
);

rename_all_case!(rename_all_pascal, "PascalCase", "TheFieldName");

rename_all_case!(rename_all_lower, "lowercase", "the_field_name");

rename_all_case!(rename_all_upper, "UPPERCASE", "THE_FIELD_NAME");

#[derive(Validate)]
#[validate(not_equal(a = from_role, b = to_role))]
struct Roles {
    #[validate(rename = "from")]
    from_role: String,
    #[validate(rename = "to")]
    to_role: String,
}

#[test]
fn struct_rules_name_fields_by_their_path_names() {
    let value = Roles {
        from_role: "x".into(),
        to_role: "x".into(),
    };
    assert_eq!(
        violations(&value),
        [v(
            "fields_equal",
            "to",
            "/to",
            "`to` must differ from `from` (both `x`)"
        )]
    );
}
