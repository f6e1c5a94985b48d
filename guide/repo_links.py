"""An mdBook preprocessor: the repository's pages the guide links to become chapters of the book.

The guide's chapters link to pages beside the code (`../../docs/spec-format.md#tables`,
`../../spec/taskpack.md`, `../../CONTRIBUTING.md`), which is right on GitHub and in a checkout,
but a built book holds only guide/src/, so those links would lead out of it. This adds every
Markdown page of the repository that a chapter links to as a chapter at its repository path
(`docs/spec-format.md`, `spec/taskpack.md`), in a part "Repository pages" after the guide's own
chapters, and points every link between the book's pages to the chapter. A link to anything
else (a folder, a `.toml` file, a page no chapter links to) is left as written. The Markdown files are not changed. Standard library only; mdBook runs
it as `python3 repo_links.py` from guide/ (book.toml).
"""

import json
import posixpath
import re
import sys
from pathlib import Path

GUIDE = Path(__file__).resolve().parent
ROOT = GUIDE.parent
SRC = "guide/src/"
LINK = re.compile(r"\]\(([^)\s#]+)(#[^)\s]*)?\)")


def resolve(page, target):
    """The repository path a relative link `target` of the page at repository path `page`
    names, or None when it leaves the repository or names no Markdown file."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("/"):
        return None
    path = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
    if path.startswith("../") or not path.endswith(".md") or not (ROOT / path).is_file():
        return None
    return path


def book_path(path):
    """Where the page at repository path `path` sits in the book (SUMMARY.md: the first page)."""
    if path == SRC + "SUMMARY.md":
        return "index.md"
    return path[len(SRC):] if path.startswith(SRC) else path


def rewrite(page, content, in_book):
    """`content` of the page at repository path `page`, its links to pages of the book made
    relative to where it sits in the book."""
    here = posixpath.dirname(book_path(page)) or "."

    def link(match):
        path = resolve(page, match.group(1))
        if path is None or path not in in_book:
            return match.group(0)
        return f"]({posixpath.relpath(book_path(path), here)}{match.group(2) or ''})"

    return LINK.sub(link, content)


def chapters(items):
    for item in items:
        chapter = item.get("Chapter") if isinstance(item, dict) else None
        if chapter:
            yield chapter
            yield from chapters(chapter["sub_items"])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "supports":
        sys.exit(0)
    _context, book = json.load(sys.stdin)
    sections = book.get("sections", book.get("items"))
    guide = [c for c in chapters(sections) if c.get("path")]
    guide_paths = {SRC + c["path"] for c in guide}
    # Every Markdown page outside the guide that a chapter links to (not the pages those link
    # to in turn: BENCHMARKS.md's history stays out).
    texts = {SRC + c["path"]: c["content"] for c in guide}
    added = []
    for page in sorted(guide_paths):
        for match in LINK.finditer(texts[page]):
            path = resolve(page, match.group(1))
            if path and path not in texts and not path.startswith(SRC):
                texts[path] = (ROOT / path).read_text(encoding="utf-8")
                added.append(path)
    in_book = guide_paths | set(added)
    # The guide's table of contents is the book's first page.
    in_book.add(SRC + "SUMMARY.md")
    for chapter in guide:
        chapter["content"] = rewrite(SRC + chapter["path"], chapter["content"], in_book)
    sections.append({"PartTitle": "Repository pages"})
    for path in sorted(added, key=lambda p: (p.count("/"), p)):
        content = rewrite(path, texts[path], in_book)
        title = next((l[2:].strip() for l in content.splitlines() if l.startswith("# ")), path)
        sections.append({"Chapter": {
            "name": f"{title} ({path})", "content": content, "number": None, "sub_items": [],
            "path": path, "source_path": None, "parent_names": [],
        }})
    json.dump(book, sys.stdout)


if __name__ == "__main__":
    main()
