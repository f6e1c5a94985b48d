//! Unit behaviour of the rule functions and paths.

use specmint_runtime::rules::{self, Fold, Named, Pair};
use specmint_runtime::{Path, Report, Seg, Validate, Violation};

fn run(f: impl FnOnce(&Path<'_>, &mut Report)) -> Vec<Violation> {
    let mut report = Report::default();
    let root = Path::ROOT;
    let list = root.field("list");
    f(&list, &mut report);
    report.into_vec()
}

fn text(value: &str, max: usize) -> Vec<Violation> {
    run(|p, r| {
        rules::non_blank(value, p, "blank", r);
        rules::max_chars(value, p, max, "long", r);
    })
}

#[test]
fn chars_not_bytes() {
    let cjk = "漢".repeat(200);
    assert_eq!(cjk.len(), 600);
    assert!(text(&cjk, 200).is_empty());
    let emoji = "😀".repeat(200);
    assert_eq!(emoji.len(), 800);
    assert!(text(&emoji, 200).is_empty());

    for long in ["漢".repeat(201), "😀".repeat(201), "a".repeat(201)] {
        let got = text(&long, 200);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].code, "long");
        assert_eq!(got[0].measured, Some(201));
        assert_eq!(got[0].limit, Some(200));
        assert_eq!(got[0].message, "`list` is 201 chars (max 200)");
    }
}

#[test]
fn chars_counted_untrimmed() {
    let got = text("  abc  ", 5);
    assert_eq!(got[0].measured, Some(7));
}

#[test]
fn blank_is_unicode_whitespace() {
    for blank in ["", " ", "\t\n", "\u{3000}", "\u{00a0}\u{2003}"] {
        let got = text(blank, 100);
        assert_eq!(got.len(), 1, "{blank:?}");
        assert_eq!(got[0].message, "`list` must not be blank");
        assert_eq!(got[0].measured, None);
    }
    assert!(text("\u{3000}x", 100).is_empty());
}

#[test]
fn option_none_is_not_checked() {
    let none: Option<String> = None;
    let got = run(|p, r| {
        rules::non_blank(&none, p, "blank", r);
        rules::max_chars(&none, p, 0, "long", r);
        rules::max_items(&None::<Vec<u8>>, p, 0, "many", r);
    });
    assert!(got.is_empty());
}

struct Item {
    key: &'static str,
    kind: &'static str,
}

fn items(keys: &[(&'static str, &'static str)]) -> Vec<Item> {
    keys.iter().map(|&(kind, key)| Item { key, kind }).collect()
}

fn unique(list: &[Item], fold: Fold) -> Vec<(String, String)> {
    run(|p, r| rules::unique_by(list, "key", |i: &Item| i.key, fold, p, "dup", r))
        .into_iter()
        .map(|v| (v.path, v.message))
        .collect()
}

#[test]
fn unique_by_flags() {
    let list = items(&[("", "C1"), ("", " c1"), ("", "C1 "), ("", "C1"), ("", "x")]);
    let verbatim = unique(&list, Fold::default());
    assert_eq!(
        verbatim,
        [(
            "list[3].key".to_string(),
            "`list[3].key` `C1` duplicates `list[0].key`".to_string()
        )]
    );
    let trimmed = unique(
        &list,
        Fold {
            trim: true,
            ignore_case: false,
        },
    );
    assert_eq!(trimmed.len(), 2); // "C1 " and "C1" duplicate [0]; " c1" differs in case
    let both = unique(
        &list,
        Fold {
            trim: true,
            ignore_case: true,
        },
    );
    assert_eq!(
        both.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(),
        ["list[1].key", "list[2].key", "list[3].key"]
    );
    assert!(both
        .iter()
        .all(|v| v.1.ends_with("duplicates `list[0].key`")));
    let case_only = unique(
        &list,
        Fold {
            trim: false,
            ignore_case: true,
        },
    );
    assert_eq!(case_only.len(), 1);
    // Unicode lowercasing, char by char.
    let greek = items(&[("", "ΣΑΣ"), ("", "σασ")]);
    assert_eq!(
        unique(
            &greek,
            Fold {
                trim: false,
                ignore_case: true
            }
        )
        .len(),
        1
    );
}

#[test]
fn unique_by_long_list_matches_pairwise() {
    // Same verdicts above and below the hash-map threshold.
    let keys: Vec<String> = (0..200).map(|i| format!(" K{} ", i % 70)).collect();
    let keys: Vec<&'static str> = keys
        .into_iter()
        .map(|k| &*Box::leak(k.into_boxed_str()))
        .collect();
    let list: Vec<Item> = keys.iter().map(|&key| Item { key, kind: "" }).collect();
    let fold = Fold {
        trim: true,
        ignore_case: true,
    };
    let long = unique(&list, fold);
    assert_eq!(long.len(), 130);
    assert_eq!(
        long[0],
        (
            "list[70].key".to_string(),
            "`list[70].key` ` K0 ` duplicates `list[0].key`".to_string()
        )
    );
    // Pairwise on a prefix gives the same first hits.
    let short = unique(&list[..64], fold);
    assert!(short.is_empty());
}

fn contradictions(list: &[Item], pairs: &[Pair<&str>]) -> Vec<String> {
    run(|p, r| {
        rules::contradiction(
            list,
            |i: &Item| &i.kind,
            Named {
                name: "value",
                value: &|i: &Item| i.key,
            },
            pairs,
            p,
            "contra",
            r,
        )
    })
    .into_iter()
    .map(|v| v.message)
    .collect()
}

/// Random lists of up to 64 items (kinds on no side, one side, or both sides of several pairs,
/// one pair with the same kind on both sides; some under more pairs than the pairwise path's
/// bits hold), each reported as the rule's definition says:
/// against the first earlier item on the other side of some pair whose value is equal (under
/// that pair's case rule).
#[test]
fn contradiction_reports_each_item_against_the_first_it_contradicts() {
    const KINDS: [&str; 5] = ["must", "must_not", "has", "lacks", "note"];
    const VALUES: [&str; 6] = ["Mail", "mail", "MAIL", "整理", "db", "\u{212A}"];
    let pairs = [
        Pair {
            a: "must",
            b: "must_not",
            ignore_case: true,
        },
        Pair {
            a: "has",
            b: "lacks",
            ignore_case: false,
        },
        Pair {
            a: "must",
            b: "lacks",
            ignore_case: false,
        },
        Pair {
            a: "note",
            b: "note",
            ignore_case: true,
        },
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut reported = 0;
    for round in 0..1_500 {
        let len = next(65);
        let rows: Vec<(&str, &str)> = (0..len)
            .map(|_| (KINDS[next(KINDS.len())], VALUES[next(VALUES.len())]))
            .collect();
        let list = items(&rows);
        // Every fifth list under 40 pairs (the four, ten times): more than the small lists'
        // bits hold, so read through the maps of long lists.
        let many: Vec<Pair<&str>> = pairs.iter().copied().cycle().take(40).collect();
        let pairs = if round % 5 == 4 {
            &many[..]
        } else {
            &pairs[..1 + round % pairs.len()]
        };
        let lower = |s: &str| s.chars().flat_map(char::to_lowercase).collect::<String>();
        let want: Vec<String> = (1..len)
            .filter_map(|j| {
                let (kj, vj) = rows[j];
                let i = (0..j).find(|&i| {
                    let (ki, vi) = rows[i];
                    pairs.iter().any(|p| {
                        ((ki == p.a && kj == p.b) || (ki == p.b && kj == p.a))
                            && if p.ignore_case {
                                lower(vi) == lower(vj)
                            } else {
                                vi == vj
                            }
                    })
                })?;
                Some(format!(
                    "`list[{j}].value` `{vj}` ({kj}) contradicts `list[{i}].value` ({})",
                    rows[i].0
                ))
            })
            .collect();
        reported += want.len();
        assert_eq!(
            contradictions(&list, pairs),
            want,
            "{rows:?} under {pairs:?}"
        );
    }
    assert!(reported > 5_000, "only {reported} contradictions");
}

#[test]
fn contradiction_verbatim_vs_ignore_case() {
    let list = items(&[
        ("must", "Mail"),
        ("must_not", "mail"),
        ("must_not", "Mail"),
        ("note", "Mail"),
    ]);
    let verbatim = [Pair {
        a: "must",
        b: "must_not",
        ignore_case: false,
    }];
    assert_eq!(
        contradictions(&list, &verbatim),
        ["`list[2].value` `Mail` (must_not) contradicts `list[0].value` (must)"]
    );
    let folded = [Pair {
        a: "must",
        b: "must_not",
        ignore_case: true,
    }];
    assert_eq!(
        contradictions(&list, &folded),
        [
            "`list[1].value` `mail` (must_not) contradicts `list[0].value` (must)",
            "`list[2].value` `Mail` (must_not) contradicts `list[0].value` (must)",
        ]
    );
    // Order of the pair's sides does not matter; items of the same side never contradict.
    let reversed = [Pair {
        a: "must_not",
        b: "must",
        ignore_case: true,
    }];
    assert_eq!(
        contradictions(&list, &reversed),
        contradictions(&list, &folded)
    );
}

#[test]
fn contradiction_long_list_matches_pairwise() {
    let mut spec = vec![("note", "x"); 100];
    spec[3] = ("must", "Tool");
    spec[80] = ("must_not", "tool");
    spec[90] = ("must_not", "TOOL");
    spec[95] = ("must", "tool");
    let list = items(&spec);
    let pairs = [Pair {
        a: "must",
        b: "must_not",
        ignore_case: true,
    }];
    assert_eq!(
        contradictions(&list, &pairs),
        [
            "`list[80].value` `tool` (must_not) contradicts `list[3].value` (must)",
            "`list[90].value` `TOOL` (must_not) contradicts `list[3].value` (must)",
            "`list[95].value` `tool` (must) contradicts `list[80].value` (must_not)",
        ]
    );
    // Same list, shortened below the threshold, pairwise.
    let short: Vec<Item> = items(&[
        ("must", "Tool"),
        ("must_not", "tool"),
        ("must_not", "TOOL"),
        ("must", "tool"),
    ]);
    assert_eq!(
        contradictions(&short, &pairs),
        [
            "`list[1].value` `tool` (must_not) contradicts `list[0].value` (must)",
            "`list[2].value` `TOOL` (must_not) contradicts `list[0].value` (must)",
            "`list[3].value` `tool` (must) contradicts `list[1].value` (must_not)",
        ]
    );
}

#[test]
fn max_items_per_group_reports_each_group_once() {
    let list = items(&[
        ("a", ""),
        ("b", ""),
        ("a", ""),
        ("a", ""),
        ("b", ""),
        ("b", ""),
    ]);
    let got = run(|p, r| rules::max_items_per_group(&list, |i: &Item| i.kind, p, 2, "group", r));
    let msgs: Vec<_> = got.iter().map(|v| v.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "`list` has 3 items of kind `a` (max 2)",
            "`list` has 3 items of kind `b` (max 2)"
        ]
    );
    assert_eq!((got[0].measured, got[0].limit), (Some(3), Some(2)));
}

#[test]
fn not_equal_path_and_message() {
    let mut report = Report::default();
    let root = Path::ROOT;
    let nested = root.field("handoff");
    let named = |name, value| Named { name, value };
    rules::not_equal(
        named("from", "x"),
        named("to", "x"),
        &nested,
        "same",
        &mut report,
    );
    rules::not_equal(
        named("from", "x"),
        named("to", "y"),
        &nested,
        "same",
        &mut report,
    );
    assert_eq!(report.len(), 1);
    assert_eq!(report.as_slice()[0].path, "handoff.to");
    assert_eq!(report.as_slice()[0].pointer, "/handoff/to");
    assert_eq!(
        report.as_slice()[0].message,
        "`handoff.to` must differ from `handoff.from` (both `x`)"
    );
}

#[derive(serde::Serialize)]
struct Doc {
    title: String,
    tags: Vec<&'static str>,
}

#[test]
fn max_json_bytes_counts_compact_json() {
    let doc = Doc {
        title: "héllo \"q\"".into(),
        tags: vec!["a", "b"],
    };
    let compact = serde_json::to_string(&doc).unwrap().len() as u64;
    assert!(compact < serde_json::to_string_pretty(&doc).unwrap().len() as u64);
    assert_eq!(rules::json_bytes(&doc), Some(compact));

    let mut report = Report::default();
    rules::max_json_bytes(&doc, &Path::ROOT, compact as usize, "big", &mut report);
    assert!(report.is_empty());
    rules::max_json_bytes(&doc, &Path::ROOT, compact as usize - 1, "big", &mut report);
    let v = &report.as_slice()[0];
    assert_eq!(v.path, "");
    assert_eq!(v.pointer, "");
    assert_eq!(
        v.message,
        format!(
            "the document is {compact} bytes as compact JSON (max {})",
            compact - 1
        )
    );
    assert_eq!((v.measured, v.limit), (Some(compact), Some(compact - 1)));
}

#[test]
fn paths_dotted_and_pointer() {
    let root = Path::ROOT;
    assert_eq!(root.dotted(), "");
    assert_eq!(root.pointer(), "");
    assert!(root.is_root());
    let c = root.field("constraints");
    let i = c.index(3);
    let t = i.field("text");
    assert_eq!(t.dotted(), "constraints[3].text");
    assert_eq!(t.pointer(), "/constraints/3/text");
    assert_eq!(t.last(), Some(Seg::Field("text")));
    assert_eq!(t.to_string(), "constraints[3].text");
    assert!(!t.is_root());
    let a = root.field("audience");
    let a1 = a.index(1);
    assert_eq!(
        (a1.dotted(), a1.pointer()),
        ("audience[1]".into(), "/audience/1".into())
    );
    // Top-level list.
    let top = root.index(0);
    assert_eq!((top.dotted(), top.pointer()), ("[0]".into(), "/0".into()));
}

#[test]
fn pointer_escapes_per_rfc6901() {
    let root = Path::ROOT;
    let odd = root.field("a/b");
    let odder = odd.field("m~n");
    let both = odder.field("~/~1");
    assert_eq!(odder.pointer(), "/a~1b/m~0n");
    assert_eq!(both.pointer(), "/a~1b/m~0n/~0~1~01");
    // Dotted notation is for humans and is not escaped.
    assert_eq!(odder.dotted(), "a/b.m~n");
}

struct Leaf(&'static str);

impl Validate for Leaf {
    fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
        rules::non_blank(self.0, path, "blank", report);
    }
}

#[test]
fn blanket_impls_index_and_unwrap() {
    let list = vec![Leaf("a"), Leaf(" ")];
    let err = list.validate().unwrap_err();
    assert_eq!(err.as_slice()[0].path, "[1]");
    let nested: Option<Box<Vec<Leaf>>> = Some(Box::new(vec![Leaf(""), Leaf("")]));
    let err = nested.validate().unwrap_err();
    assert_eq!(
        err.to_string(),
        "blank: `[0]` must not be blank\nblank: `[1]` must not be blank"
    );
    assert_eq!(err.codes().collect::<Vec<_>>(), ["blank", "blank"]);
    assert!(None::<Leaf>.validate().is_ok());
}

mod newer_rules {
    use specmint_runtime::rules::{self, Pattern};
    use specmint_runtime::{Path, Report};

    #[test]
    fn relative_path_problems() {
        use rules::relative_path_problem as p;
        assert_eq!(p(""), Some("is empty"));
        for abs in ["/x", "\\x", "C:\\x", "C:/x", "c:x", "//server/share"] {
            assert_eq!(p(abs), Some("is absolute"), "{abs:?}");
        }
        for up in ["..", "../x", "a/..", "a\\..\\b", "a/b/../../c"] {
            assert_eq!(p(up), Some("contains `..`"), "{up:?}");
        }
        for ok in [" ", ".", "a", "a/b", "...", "a..b", "./x", "1:x"] {
            assert_eq!(p(ok), None, "{ok:?}");
        }
    }

    #[test]
    fn an_invalid_pattern_is_reported_not_panicked() {
        static BAD: Pattern = Pattern::new("(");
        assert_eq!(BAD.is_match("x"), None);
        let mut report = Report::new();
        rules::pattern(
            "x",
            &BAD,
            &Path::ROOT.field("id"),
            "pattern_mismatch",
            &mut report,
        );
        assert_eq!(
            report.to_string(),
            "pattern_mismatch: `id` cannot be checked: `(` is not a valid regex"
        );
    }
}

/// `fold_eq` skips the common byte prefix before lowercasing: the difference may fall
/// inside a multi-byte char, after a shared prefix, or between chars of different widths.
#[test]
fn fold_eq_ignoring_case_agrees_with_lowercasing_everything() {
    use specmint_runtime::rules::{fold_eq, Fold};
    let fold = Fold {
        trim: true,
        ignore_case: true,
    };
    let naive = |a: &str, b: &str| {
        let low = |s: &str| {
            s.trim()
                .chars()
                .flat_map(char::to_lowercase)
                .collect::<String>()
        };
        low(a) == low(b)
    };
    let words = [
        "",
        "a",
        "A",
        "aé",
        "aÉ",
        "école",
        "ÉCOLE",
        "\u{212A}elvin",
        "kelvin",
        "KELVIN",
        "İ",
        "i̇",
        "ß",
        "SS",
        "ss",
        "channel:漢字",
        "CHANNEL:漢字",
        "channel:漢子",
        " c1 ",
        "C1",
        "c1x",
        "straße",
        "STRASSE",
        "ΣΑΣ",
        "σας",
        "🦀a",
        "🦀A",
        "🦀b",
    ];
    for a in words {
        for b in words {
            assert_eq!(fold_eq(a, b, fold), naive(a, b), "{a:?} vs {b:?}");
        }
    }
    // Long shared prefixes: the difference at every offset up to past two 16-byte blocks,
    // on ASCII and on multi-byte chars (a difference inside a char included).
    for prefix in ["", "a", "漢", "é"] {
        for n in 0..40 {
            let base = prefix.repeat(n);
            for (x, y) in [
                ("x", "X"),
                ("x", "y"),
                ("é", "É"),
                ("漢", "字"),
                ("", "z"),
                ("Σ", "σ"),
            ] {
                let (a, b) = (format!("{base}{x}tail"), format!("{base}{y}tail"));
                assert_eq!(fold_eq(&a, &b, fold), naive(&a, &b), "{a:?} vs {b:?}");
            }
        }
    }
    assert!(fold_eq("aé", "aÉ", fold));
    assert!(fold_eq("\u{212A}elvin", "kelvin", fold));
    assert!(!fold_eq("channel:漢字", "channel:漢子", fold));
    assert!(
        !fold_eq("ß", "SS", fold),
        "lowercasing, not full case folding"
    );
}

#[test]
fn is_blank_matches_trim() {
    use specmint_runtime::rules::is_blank;
    for s in [
        "",
        " ",
        "\u{3000}",
        "\t\n",
        " a ",
        "a",
        "\u{3000}x",
        "\u{85}",
        "\u{200B}",
    ] {
        assert_eq!(is_blank(s), s.trim().is_empty(), "{s:?}");
    }
}

/// Both notations are rendered in one walk at their exact lengths: check them on escapes,
/// the largest index and paths that start with an index.
#[test]
fn paths_render_in_both_notations() {
    let root = Path::ROOT;
    let a = root.field("a~b/c");
    let big = a.index(usize::MAX);
    let zero = big.index(0);
    let leaf = zero.field("x");
    assert_eq!(
        leaf.render(),
        (
            format!("a~b/c[{}][0].x", usize::MAX),
            format!("/a~0b~1c/{}/0/x", usize::MAX)
        )
    );
    let first = root.index(10);
    let field = first.field("id");
    assert_eq!(field.render(), ("[10].id".to_owned(), "/10/id".to_owned()));
    assert_eq!(root.render(), (String::new(), String::new()));
    assert_eq!(root.field("").pointer(), "/");
}

#[test]
fn path_display_is_the_dotted_notation() {
    let root = Path::ROOT;
    let first = root.index(3);
    let field = first.field("id");
    let list = field.field("list");
    let item = list.index(12);
    let empty = root.field("");
    let after_empty = empty.field("a");
    let empty_after = after_empty.field("");
    let twice = empty_after.field("b");
    for p in [
        &root,
        &first,
        &field,
        &list,
        &item,
        &empty,
        &after_empty,
        &empty_after,
        &twice,
    ] {
        assert_eq!(p.to_string(), p.dotted());
    }
    assert_eq!(twice.to_string(), "a..b");
    assert_eq!(item.to_string(), "[3].id.list[12]");
    assert_eq!(
        format!("{:>4}", root.field("a")),
        "a",
        "no padding is applied"
    );
}

/// The derive's key-at-a-time checker agrees with `unique_by`, also when more keys arrive
/// than it was told (it moves from pairwise to its hash map past `SMALL_LIST` keys).
#[test]
fn unique_by_keys_one_at_a_time_agrees_even_past_the_announced_length() {
    let fold = Fold {
        trim: true,
        ignore_case: true,
    };
    let mut keys: Vec<String> = (0..70).map(|i| format!("k{i}")).collect();
    keys.extend([" K3 ".to_owned(), "k69".to_owned(), "K0".to_owned()]);
    struct Item(String);
    let items: Vec<Item> = keys.iter().cloned().map(Item).collect();
    let expected = run(|p, r| rules::unique_by(&items, "id", |it: &Item| &it.0, fold, p, "dup", r));
    assert_eq!(
        expected.iter().map(|v| v.path.as_str()).collect::<Vec<_>>(),
        ["list[70].id", "list[71].id", "list[72].id"]
    );
    for announced in [0, 10, 64, 73, 200] {
        let got = run(|p, r| {
            let mut checker =
                specmint_runtime::__private::UniqueByKeys::new(announced, "id", fold, p, "dup", r);
            for k in &keys {
                checker.key(Some(k));
            }
        });
        assert_eq!(got, expected, "announced {announced}");
    }
    assert_eq!(
        expected[0].message,
        "`list[70].id` ` K3 ` duplicates `list[3].id`"
    );
}
