"""An mdBook preprocessor: the reference documents of docs/ become chapters of the built book.

The guide's chapters link to the references beside the code (`../../docs/spec-format.md#tables`),
which is right on GitHub and in a checkout, but a built book holds only guide/src/, so those
links would lead out of it. This adds each docs/*.md as a chapter `docs/<name>.md` (a part
"Reference documents" after the guide's own chapters) and points the guide's links to them there,
and the references' links back into the guide (`../guide/src/validation.md`) to the chapters.
The Markdown files are not changed. Standard library only; mdBook runs it as
`python3 repo_links.py` from guide/ (book.toml).
"""

import json
import pathlib
import re
import sys

GUIDE = pathlib.Path(__file__).resolve().parent
DOCS = GUIDE.parent / "docs"
# ](../../docs/NAME.md#anchor) in a guide chapter; ](../guide/src/NAME.md#anchor) in a reference.
TO_DOCS = re.compile(r"\]\(\.\./\.\./docs/([\w.-]+\.md)(#[^)\s]*)?\)")
TO_GUIDE = re.compile(r"\]\(\.\./guide/src/([\w.-]+\.md)(#[^)\s]*)?\)")


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
    for chapter in chapters(sections):
        chapter["content"] = TO_DOCS.sub(lambda m: f"](docs/{m.group(1)}{m.group(2) or ''})",
                                         chapter["content"])
    sections.append({"PartTitle": "Reference documents"})
    for page in sorted(DOCS.glob("*.md")):
        content = page.read_text(encoding="utf-8")
        content = TO_GUIDE.sub(lambda m: f"](../{m.group(1)}{m.group(2) or ''})", content)
        title = next((l[2:].strip() for l in content.splitlines() if l.startswith("# ")), page.stem)
        path = f"docs/{page.name}"
        sections.append({"Chapter": {
            "name": title, "content": content, "number": None, "sub_items": [],
            "path": path, "source_path": path, "parent_names": [],
        }})
    json.dump(book, sys.stdout)


if __name__ == "__main__":
    main()
