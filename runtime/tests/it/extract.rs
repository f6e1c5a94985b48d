//! `Extract::OutermostObject`: a JSON object wrapped in prose is parsed from its first `{` to
//! its last `}`; anything that is JSON already is parsed whole.

use serde::Deserialize;
use specmint_runtime::document::{
    extracted_range, locate, parse_document, parse_document_str, DocumentSpec, Extract,
};
use specmint_runtime::{Path, Report, Validate, Violation};

const SPEC: DocumentSpec = DocumentSpec::new("reply", "invalid_reply")
    .with_forbidden_keys(&["reasoning"], "forbidden_field")
    .with_max_input_bytes(4096)
    .with_extract(Extract::OutermostObject);

const WHOLE: DocumentSpec = SPEC.with_extract(Extract::Whole);

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Reply {
    answer: String,
}

impl Validate for Reply {
    fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
        specmint_runtime::rules::non_blank(&self.answer, &path.field("answer"), "blank", report);
    }
}

fn parse(input: &str) -> Result<Reply, Report> {
    parse_document_str::<Reply>(input, &SPEC)
}

fn only(report: &Report) -> &Violation {
    assert_eq!(report.len(), 1, "{report:?}");
    &report.as_slice()[0]
}

fn reply(answer: &str) -> Reply {
    Reply {
        answer: answer.into(),
    }
}

#[test]
fn whole_json_is_unaffected() {
    assert_eq!(parse(r#"{"answer": "yes"}"#), Ok(reply("yes")));
    assert_eq!(parse(" \n{\"answer\": \"yes\"}\n"), Ok(reply("yes")));
}

#[test]
fn prose_before_and_after() {
    let input = "Sure! Here it is:\n{\"answer\": \"yes\"}\nHope that helps.";
    assert_eq!(parse(input), Ok(reply("yes")));
    assert_eq!(
        parse_document::<Reply>(input.as_bytes(), &SPEC),
        Ok(reply("yes"))
    );
    assert_eq!(parse("Result: {\"answer\": \"yes\"}"), Ok(reply("yes")));
    assert_eq!(parse("{\"answer\": \"yes\"} -- done"), Ok(reply("yes")));
    // `Whole` refuses the same text.
    let report = parse_document_str::<Reply>(input, &WHOLE).unwrap_err();
    assert_eq!(only(&report).code, "invalid_reply");
    assert_eq!(only(&report).message, "expected value at line 1 column 1");
}

#[test]
fn braces_inside_strings_and_prose() {
    // Braces inside the object's strings are part of the object.
    let input = "Here: {\"answer\": \"use } and { freely\"} ok";
    assert_eq!(parse(input), Ok(reply("use } and { freely")));
    // A brace in the prose after the object widens the slice: trailing characters.
    let report = parse("Here: {\"answer\": \"x\"} (see {notes}").unwrap_err();
    assert_eq!(
        only(&report).message,
        "trailing characters at line 1 column 17"
    );
    // A brace in the prose before the object starts the slice early: not JSON.
    let report = parse("Use {braces}: {\"answer\": \"x\"}").unwrap_err();
    assert_eq!(only(&report).code, "invalid_reply");
    assert_eq!(
        only(&report).message,
        "key must be a string at line 1 column 2"
    );
}

#[test]
fn two_objects_fail_with_trailing_characters() {
    let input = "First {\"answer\": \"a\"} then {\"answer\": \"b\"}.";
    let report = parse(input).unwrap_err();
    let v = only(&report);
    assert_eq!(v.code, "invalid_reply");
    assert_eq!((v.path.as_str(), v.pointer.as_str()), ("", ""));
    assert_eq!(v.message, "trailing characters at line 1 column 17");
}

#[test]
fn no_braces_or_unparseable_text_fails_with_the_parse_code() {
    let report = parse("I could not produce an answer.").unwrap_err();
    assert_eq!(only(&report).code, "invalid_reply");
    assert_eq!(only(&report).message, "expected value at line 1 column 1");
    let report = parse("oops } backwards {").unwrap_err();
    assert_eq!(only(&report).message, "expected value at line 1 column 1");
    let report = parse("text {not json} more").unwrap_err();
    assert_eq!(only(&report).code, "invalid_reply");
    assert_eq!(
        only(&report).message,
        "key must be a string at line 1 column 2"
    );
    let report = parse("").unwrap_err();
    assert_eq!(only(&report).code, "invalid_reply");
}

#[test]
fn valid_json_that_is_not_an_object_is_not_extracted() {
    let report = parse("[1]").unwrap_err();
    assert_eq!(only(&report).code, "invalid_reply");
    assert_eq!(
        only(&report).message,
        "invalid type: sequence, expected struct Reply at line 1 column 0"
    );
    // A JSON string holding an object is a string, not an object.
    let report = parse(r#""{\"answer\": \"yes\"}""#).unwrap_err();
    assert_eq!(only(&report).code, "invalid_reply");
    assert!(only(&report).message.starts_with("invalid type: string"));
    // So is valid JSON of the wrong shape: its own error, no extraction.
    let report = parse(r#"{"answer": 1}"#).unwrap_err();
    assert_eq!(only(&report).path, "answer");
}

#[test]
fn extracted_documents_go_through_the_whole_pipeline() {
    // Validation.
    let report = parse("Answer: {\"answer\": \" \"}.").unwrap_err();
    assert_eq!(
        only(&report),
        &Violation::from_parts(
            "blank",
            "answer".into(),
            "/answer".into(),
            "`answer` must not be blank".into(),
        )
    );
    // Forbidden keys.
    let report = parse("Answer: {\"answer\": \"x\", \"reasoning\": \"...\"}.").unwrap_err();
    assert_eq!(only(&report).code, "forbidden_field");
    assert_eq!(only(&report).path, "reasoning");
    // Typed errors, with paths; positions count within the slice.
    let input = "Answer:\n{\"answer\": \"x\", \"extra\": 1}";
    let report = parse(input).unwrap_err();
    let v = only(&report);
    assert_eq!(v.path, "extra");
    assert_eq!(
        v.message,
        "unknown field `extra`, expected `answer` at line 1 column 23"
    );
    let range = extracted_range(input, &SPEC).unwrap();
    assert_eq!(range, 8..input.len());
    assert_eq!(locate(&input[range], "/extra"), Some((1, 26)));
    // The size limit applies to the whole input.
    let long = format!("{}{{\"answer\": \"x\"}}", "x".repeat(4096));
    assert!(only(&parse(&long).unwrap_err())
        .message
        .ends_with("and was not parsed"));
}

#[test]
fn extracted_range_rules() {
    assert_eq!(extracted_range("a {\"x\": 1} b", &SPEC), Some(2..10));
    assert_eq!(extracted_range("a {\"x\": 1} b", &WHOLE), None);
    assert_eq!(extracted_range("{\"x\": 1}", &SPEC), None);
    assert_eq!(extracted_range("[1]", &SPEC), None);
    assert_eq!(extracted_range("no braces", &SPEC), None);
    assert_eq!(extracted_range("} {", &SPEC), None);
    assert_eq!(Extract::default(), Extract::Whole);
}
