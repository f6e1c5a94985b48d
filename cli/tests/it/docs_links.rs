//! The documentation holds together: every relative link of README.md, CONTRIBUTING.md,
//! ARCHITECTURE.md, CHANGELOG.md, BENCHMARKS.md, docs/*.md and the guide (guide/src/*.md) reaches a file or folder of the
//! repository, and every `#anchor` into a Markdown file names one of its headings by GitHub's
//! rule; the guide's SUMMARY.md lists every chapter and nothing else; the README stays a
//! front door (under 300 lines). Failures name `file:line`, all of them at once.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The README's length limit (issue 49: a front door, not the manual).
const README_MAX_LINES: usize = 300;

/// The Markdown files whose links are held: the front door, the contributor's pages, docs/
/// and the guide.
fn pages() -> Vec<PathBuf> {
    let root = common::root();
    let mut pages: Vec<PathBuf> = [
        "README.md",
        "CONTRIBUTING.md",
        "ARCHITECTURE.md",
        "CHANGELOG.md",
        "BENCHMARKS.md",
    ]
    .iter()
    .map(|p| root.join(p))
    .collect();
    for dir in ["docs", "guide/src"] {
        pages.extend(markdown_in(&root.join(dir)));
    }
    pages
}

/// The `.md` files directly in `dir`, sorted.
fn markdown_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files
}

/// GitHub's Markdown: tables, strikethrough, task lists, footnotes.
fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(
        text,
        Options::ENABLE_TABLES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS
            | Options::ENABLE_FOOTNOTES,
    )
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// Every link and image destination of `text`, with its line.
fn links(text: &str) -> Vec<(usize, String)> {
    parser(text)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => {
                Some((line_of(text, range.start), dest_url.into_string()))
            }
            _ => None,
        })
        .collect()
}

/// GitHub's anchor for a heading's text: lower case, every character but letters, digits,
/// `_`, `-` and spaces dropped, each space a `-`.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of `text`'s headings: each heading's slug, a repeated one suffixed `-1`,
/// `-2`, ... as GitHub does.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeSet::new();
    let mut heading: Option<String> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let slug = slug(heading.take().unwrap_or_default().trim());
                let n = seen.entry(slug.clone()).or_insert(0);
                anchors.insert(if *n == 0 {
                    slug.clone()
                } else {
                    format!("{slug}-{n}")
                });
                *n += 1;
            }
            _ => {}
        }
    }
    anchors
}

/// Whether `dest` leaves the repository (a scheme: `https:`, `mailto:`).
fn is_external(dest: &str) -> bool {
    dest.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

/// What is wrong with `dest`, a link of `page`, if anything.
fn broken(page: &Path, dest: &str) -> Option<String> {
    if is_external(dest) {
        return None;
    }
    let (path, fragment) = match dest.split_once('#') {
        Some((path, fragment)) => (path, Some(fragment)),
        None => (dest, None),
    };
    let target = if path.is_empty() {
        page.to_path_buf()
    } else if let Some(from_root) = path.strip_prefix('/') {
        common::root().join(from_root)
    } else {
        page.parent().unwrap().join(path)
    };
    if !target.exists() {
        return Some(format!("`{dest}`: {} does not exist", target.display()));
    }
    let fragment = fragment.filter(|f| !f.is_empty())?;
    if target.extension().is_none_or(|x| x != "md") {
        return None;
    }
    let text = std::fs::read_to_string(&target).unwrap();
    if anchors(&text).contains(fragment) {
        None
    } else {
        Some(format!(
            "`{dest}`: {} has no heading whose anchor is `#{fragment}`",
            target.display()
        ))
    }
}

/// `page` relative to the repository, for messages.
fn shown(page: &Path) -> String {
    page.strip_prefix(common::root())
        .unwrap_or(page)
        .display()
        .to_string()
}

#[test]
fn every_relative_link_and_anchor_of_the_docs_resolves() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, dest) in links(&text) {
            checked += 1;
            if let Some(problem) = broken(&page, &dest) {
                problems.push(format!("{}:{line}: {problem}", shown(&page)));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} broken links:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(
        checked > 100,
        "only {checked} links were found: is the parser reading the pages?"
    );
}

#[test]
fn the_link_check_finds_what_it_must() {
    let page = common::root().join("README.md");
    assert_eq!(broken(&page, "https://example.com/nowhere"), None);
    assert_eq!(broken(&page, "docs/"), None);
    assert_eq!(broken(&page, "docs/diff.md#witnesses"), None);
    assert_eq!(broken(&page, "#links"), None);
    assert_eq!(
        broken(&page, "docs/spec-format.md#the-sidecar-nametoml"),
        None,
        "a heading's code span and punctuation"
    );
    assert!(broken(&page, "docs/nothing.md").is_some());
    assert!(broken(&page, "docs/diff.md#nothing").is_some());
    assert!(broken(&page, "#nothing").is_some());
    // GitHub's rule: code spans read as their text, punctuation dropped, spaces as `-`,
    // a repeated heading numbered.
    assert_eq!(
        anchors("# The sidecar (`<name>.toml`)\n## `specmint validate`'s verdicts\n## A\n## A\n"),
        BTreeSet::from([
            "the-sidecar-nametoml".to_owned(),
            "specmint-validates-verdicts".to_owned(),
            "a".to_owned(),
            "a-1".to_owned(),
        ])
    );
    // A heading-like line in a fenced block is no heading; a link in one is no link.
    assert!(anchors("```sh\n# comment\n```\n").is_empty());
    assert!(links("```md\n[x](nowhere.md)\n```\n").is_empty());
    assert_eq!(
        links("| a | [b](b.md) |\n|---|---|\n\ntext\n![c](c.png)\n"),
        vec![(1, "b.md".to_owned()), (5, "c.png".to_owned())]
    );
}

#[test]
fn the_guide_summary_lists_every_chapter_and_only_chapters() {
    let src = common::root().join("guide/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary)
        .into_iter()
        .map(|(line, dest)| {
            assert!(
                src.join(&dest).is_file() && !dest.contains("..") && dest.ends_with(".md"),
                "guide/src/SUMMARY.md:{line}: `{dest}` is not a chapter file of guide/src/"
            );
            dest
        })
        .collect();
    let chapters: BTreeSet<String> = markdown_in(&src)
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_owned())
        .filter(|name| name != "SUMMARY.md")
        .collect();
    let unlisted: Vec<&String> = chapters.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "guide/src/SUMMARY.md does not list {unlisted:?}"
    );
    let book = std::fs::read_to_string(common::root().join("guide/book.toml")).unwrap();
    assert!(
        book.contains("[book]") && book.contains("src = \"src\""),
        "{book}"
    );
}

#[test]
fn the_readme_is_a_front_door() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines < README_MAX_LINES,
        "README.md has {lines} lines (at most {}): move the long form into the guide",
        README_MAX_LINES - 1
    );
    // The own-spec path comes right after the two fresh-machine commands.
    let own_spec = readme
        .lines()
        .position(|l| l == "## Your own spec in minutes")
        .expect("README has its own-spec section");
    assert!(
        own_spec < 40,
        "the own-spec path starts at line {}",
        own_spec + 1
    );
}

/// BENCHMARKS.md holds today's numbers only (issue 49): the history lives in dated files.
#[test]
fn benchmarks_md_is_todays_numbers_in_under_300_lines() {
    let text = std::fs::read_to_string(common::root().join("BENCHMARKS.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines < 300,
        "BENCHMARKS.md has {lines} lines: move what is no longer today's figure into benches/history/"
    );
}
