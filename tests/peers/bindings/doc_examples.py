"""Every Python and JavaScript example of README.md and the guide runs against the built bindings.

    doc_examples.py --python-path DIR --node-package DIR

DIR (Python): a directory holding the `specmint` package with its extension module (the site
packages of the venv run.sh installed the wheel into); DIR (Node): the installed Node package
(`node_modules/specmint`, beside its platform package), which examples reach as `specmint` or as
`./bindings/node`. Per page, in a scratch directory:
the page's `file=PATH` fences are written to PATH (the convention of the shell examples,
cli/tests/it/docs_examples.rs), the repository's `tests/` and `generated/` are reachable as
`tests/` and `generated/`, the Node package as `bindings/node`; then each ```python fence runs in
this Python and each ```js fence in node, in page order. An example that exits non-zero fails
the run, named by its page and line. A Python example that raises, and a JavaScript one that
throws, are each run once more as a control, so the runner is seen to fail on a wrong example.
"""

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[3]
FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")


def pages():
    return [ROOT / "README.md"] + sorted((ROOT / "guide" / "src").glob("*.md"))


def fences(text):
    """(info, first line number, body) of each fenced block, a longer fence holding shorter ones."""
    out, open_fence = [], None
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if open_fence is None:
            if match:
                open_fence = (match.group(1), match.group(2).strip(), number + 1, [])
        elif match and match.group(1)[0] == open_fence[0][0] \
                and len(match.group(1)) >= len(open_fence[0]) and not match.group(2).strip():
            out.append((open_fence[1], open_fence[2], "\n".join(open_fence[3]) + "\n"))
            open_fence = None
        else:
            open_fence[3].append(line)
    return out


def attribute(info, key):
    for word in info.split():
        if word.startswith(key + "="):
            return word[len(key) + 1:]
    return None


def run_page(name, text, env, node_package):
    """Runs a page's examples; returns (problems, how many ran)."""
    problems, ran = [], 0
    with tempfile.TemporaryDirectory(prefix="specmint-doc-examples-") as scratch:
        work = pathlib.Path(scratch)
        for link in ("tests", "generated"):
            (work / link).symlink_to(ROOT / link)
        (work / "bindings").mkdir()
        (work / "bindings" / "node").symlink_to(pathlib.Path(node_package).resolve())
        for info, line, body in fences(text):
            path = attribute(info, "file")
            if path:
                (work / path).parent.mkdir(parents=True, exist_ok=True)
                (work / path).write_text(body)
            language = info.split()[0] if info.split() else ""
            if language not in ("python", "js"):
                continue
            ran += 1
            script = work / f"example_{line}.{'py' if language == 'python' else 'js'}"
            script.write_text(body)
            command = [sys.executable, script.name] if language == "python" else ["node", script.name]
            result = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True,
                                    timeout=120)
            if result.returncode != 0:
                problems.append(f"{name}:{line}: the {language} example exited "
                                f"{result.returncode}:\n{result.stdout}{result.stderr}")
    return problems, ran


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--python-path", required=True)
    parser.add_argument("--node-package", required=True)
    args = parser.parse_args()
    env = dict(os.environ)
    env["PYTHONPATH"] = str(pathlib.Path(args.python_path).resolve())
    # `require("specmint")`, as a partner who installed the package writes it.
    modules = pathlib.Path(args.node_package).resolve().parent
    if modules.name == "node_modules":
        env["NODE_PATH"] = str(modules)
    problems, ran = [], 0
    for page in pages():
        p, n = run_page(str(page.relative_to(ROOT)), page.read_text(), env, args.node_package)
        problems += p
        ran += n
    failed = len(problems)
    # Controls: a wrong example of each language fails the runner, at its line.
    wrong = "# t\n\n```python\nimport specmint\nspecmint.check('task-packet', b'{}')\n```\n\n" \
            "```js\nrequire('./bindings/node').check('task-packet', '{}');\n```\n"
    control, control_ran = run_page("control.md", wrong, env, args.node_package)
    if control_ran != 2 or [c.split(" ")[0] for c in control] != ["control.md:4:", "control.md:9:"]:
        problems.append(f"the runner did not fail the two wrong examples: {control}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if ran < 5:
        problems.append(f"only {ran} examples ran")
        print(problems[-1], file=sys.stderr)
    print(f"doc_examples: {ran - failed} passed, {failed} failed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
