"""This repository's pre-commit hooks (.pre-commit-hooks.yaml) run by the real pre-commit tool.

Usage: tests/peers/precommit/run.py SPECMINT_BINARY

A scratch git repository keeps a spec of its own (tests/fixtures/own_spec) in spec/, its output
in generated/ and the guide's .pre-commit-config.yaml (guide/src/diff.md), naming this checkout
at its HEAD commit the way another project names this repository at a tag; SPECMINT_BINARY is the `specmint` first on
PATH (the hooks are `language: system`). pre-commit clones this checkout as it is committed:
the hooks file of HEAD is the one tried, so commit an edit of it before running this. Nothing
here uses the network (pre-commit with `language: system` installs nothing). Exit status 1
when a check failed.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
# Where the block this run commits as the scratch repository's .pre-commit-config.yaml is written.
GUIDE_HOOKS = "guide/src/diff.md"
BIN = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else sys.exit(__doc__)
SPEC = "spec/webhook_event.md"
# The fixture's `summary` cap, and the same table row with another value.
CAP_ROW = "| `summary` | 40 chars |"

failures = []


def check(name, ok, output=""):
    print(("ok   " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)
        print("    " + output.replace("\n", "\n    "))


def main():
    rev = git(ROOT, "rev-parse", "HEAD").strip()
    if subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "-e", f"{rev}:.pre-commit-hooks.yaml"]
    ).returncode:
        sys.exit(f"{ROOT} has no .pre-commit-hooks.yaml at HEAD ({rev}): commit it first")
    with tempfile.TemporaryDirectory(prefix="specmint-precommit-") as tmp:
        tmp = Path(tmp)
        env = environment(tmp)
        repo = tmp / "repo"
        repo.mkdir()
        git(repo, "init", "--quiet", "--initial-branch=main", env=env)
        shutil.copytree(ROOT / "tests/fixtures/own_spec", repo / "spec")
        run(repo, env, [str(BIN), "generate"], expect=0)
        (repo / ".pre-commit-config.yaml").write_text(readme_config(rev))
        commit(repo, env, "base")
        git(repo, "branch", "base", env=env)
        print(
            f"pre-commit {precommit(repo, env, '--version').stdout.split()[-1]}, hooks of {rev[:12]}"
        )

        # Fresh output: both hooks run for the sidecar alone (--verbose prints what specmint
        # said, so a hook that was skipped or never reached the binary cannot pass here) and pass;
        # a file that is no spec's runs neither.
        out = precommit(repo, env, "run", "--files", "spec/webhook_event.toml", "--verbose")
        check(
            "fresh generated/: both hooks run for spec/*.toml and pass",
            out.returncode == 0
            and "generated: up to date (3 files)" in out.stdout
            and "no change" in out.stdout
            and out.stdout.count("Passed") == 2,
            out.stdout,
        )

        (repo / "notes.txt").write_text("not a spec\n")
        out = precommit(repo, env, "run", "--files", "notes.txt", "--verbose")
        check(
            "a file that is no spec's: both hooks skipped",
            out.returncode == 0 and out.stdout.count("Skipped") == 2,
            out.stdout,
        )
        (repo / "notes.txt").unlink()

        # The spec edited (a table added, compatible), generated/ not refreshed: the commit is
        # refused by the installed hook, with the stale files named; HEAD does not move.
        edit(
            repo / SPEC,
            "## Caps",
            "## Priorities: `priority`\n\n| Value | Meaning |\n|---|---|\n| `low` | Can wait. |\n\n## Caps",
        )
        git(repo, "add", "-A", env=env)
        out = precommit(repo, env, "run", "specmint-generate-check")
        stale = [
            f"generated/{f}: out of date"
            for f in (
                "corpus/webhook_event/cases.json",
                "rust/webhook_event.rs",
                "schema/webhook_event.schema.json",
            )
        ]
        check(
            "stale generated/: specmint-generate-check fails naming each stale file",
            out.returncode == 1
            and all(s in out.stdout for s in stale)
            and "run `specmint generate` to refresh generated" in out.stdout,
            out.stdout,
        )
        precommit(repo, env, "install")
        head = git(repo, "rev-parse", "HEAD", env=env)
        out = run(repo, env, ["git", "commit", "--quiet", "-m", "stale"])
        check(
            "stale generated/: `git commit` with the hook installed is refused",
            out.returncode != 0
            and stale[1] in out.stdout
            and git(repo, "rev-parse", "HEAD", env=env) == head,
            out.stdout,
        )

        # The same edit with generated/ refreshed: a compatible change, so both hooks pass and
        # the commit goes in.
        run(repo, env, [str(BIN), "generate"], expect=0)
        git(repo, "add", "-A", env=env)
        out = precommit(repo, env, "run", "--verbose")
        check(
            "compatible change, output refreshed: both hooks pass",
            out.returncode == 0
            and "type-added [compatible]: table `priority` added" in out.stdout
            and "1 changes, 0 breaking" in out.stdout,
            out.stdout,
        )
        out = run(repo, env, ["git", "commit", "--quiet", "-m", "priority"])
        check(
            "compatible change: `git commit` goes in",
            out.returncode == 0 and git(repo, "rev-parse", "HEAD", env=env) != head,
            out.stdout,
        )

        # generated/ edited by hand, the spec untouched: the check runs for that file alone and
        # names it.
        with open(repo / "generated/rust/webhook_event.rs", "a") as f:
            f.write("// edited by hand\n")
        git(repo, "add", "-A", env=env)
        out = precommit(repo, env, "run", "specmint-generate-check")
        check(
            "generated/ edited by hand: specmint-generate-check fails naming the file",
            out.returncode == 1 and stale[1] in out.stdout and stale[0] not in out.stdout,
            out.stdout,
        )
        git(repo, "checkout", "HEAD", "--", "generated", env=env)

        # A breaking change (the `summary` cap tightened), output refreshed: specmint-diff fails
        # with the break and its witness; generate --check passes.
        edit(repo / SPEC, CAP_ROW, "| `summary` | 30 chars |")
        run(repo, env, [str(BIN), "generate"], expect=0)
        git(repo, "add", "-A", env=env)
        out = precommit(repo, env, "run", "specmint-diff", "--files", SPEC)
        check(
            "breaking change: specmint-diff fails for spec/*.md",
            out.returncode == 1
            and "cap-tightened [documents]: the char cap of `summary` is 30, was 40" in out.stdout
            and "old valid, new invalid (too_long@summary)" in out.stdout
            and "1 changes, 1 breaking" in out.stdout,
            out.stdout,
        )
        out = precommit(repo, env, "run", "specmint-generate-check")
        check(
            "breaking change, output refreshed: specmint-generate-check passes",
            out.returncode == 0 and "Passed" in out.stdout,
            out.stdout,
        )

        # A CI job's arguments: the break committed past the hook, so HEAD has it and the default
        # `--against HEAD` sees nothing, while `args: [--against, base, --format, github]` (the
        # branch `base` standing for origin/main) fails with a workflow annotation
        # (and notes the compatible table added since base).
        run(repo, env, ["git", "commit", "--quiet", "--no-verify", "-m", "tighten"], expect=0)
        out = precommit(repo, env, "run", "specmint-diff", "--all-files", "--verbose")
        check(
            "break committed: the default --against HEAD passes",
            out.returncode == 0 and "no change" in out.stdout,
            out.stdout,
        )
        config = (repo / ".pre-commit-config.yaml").read_text()
        config = re.sub(
            r"(?m)^( *)- id: specmint-diff\b.*$",
            r"\g<0>\n\1  args: [--against, base, --format, github]",
            config,
        )
        (repo / ".pre-commit-config.yaml").write_text(config)
        git(repo, "add", ".pre-commit-config.yaml", env=env)
        out = precommit(repo, env, "run", "specmint-diff", "--all-files")
        check(
            "args: [--against, base, --format, github]: the break since base fails, annotated",
            out.returncode == 1
            and "::error file=spec/webhook_event.md,line=" in out.stdout
            and "title=specmint diff%3A cap-tightened::" in out.stdout
            and "title=specmint diff%3A type-added::" in out.stdout,
            out.stdout,
        )

    if failures:
        sys.exit(f"pre-commit hooks: {len(failures)} check(s) failed: {', '.join(failures)}")
    print("pre-commit hooks: all checks passed")


def readme_config(rev):
    """The guide's `.pre-commit-config.yaml` block (guide/src/diff.md, "Hooks for your
    repository"), its placeholders for this repository's URL and a revision of it filled with
    this checkout and REV."""
    readme = (ROOT / GUIDE_HOOKS).read_text()
    found = re.search(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", readme, re.S)
    if not found:
        sys.exit(f"{GUIDE_HOOKS} has no ```yaml block starting with `# .pre-commit-config.yaml`")
    config = found.group(1)
    for placeholder in ("<this repository's git URL>", "<a tag or commit of it>"):
        if placeholder not in config:
            sys.exit(f"{GUIDE_HOOKS}'s .pre-commit-config.yaml block has no {placeholder}")
    return config.replace("<this repository's git URL>", str(ROOT)).replace(
        "<a tag or commit of it>", rev
    )


def environment(tmp):
    """The scratch repository's environment: SPECMINT_BINARY first on PATH as `specmint`,
    pre-commit's cache and git's configuration in the temporary directory."""
    bindir = tmp / "bin"
    bindir.mkdir()
    (bindir / "specmint").symlink_to(BIN)
    gitconfig = tmp / "gitconfig"
    gitconfig.write_text("[user]\n\tname = pre-commit test\n\temail = precommit@example.invalid\n")
    env = dict(os.environ)
    env.update(
        PATH=f"{bindir}{os.pathsep}{env.get('PATH', '')}",
        PRE_COMMIT_HOME=str(tmp / "cache"),
        GIT_CONFIG_GLOBAL=str(gitconfig),
        GIT_CONFIG_NOSYSTEM="1",
        NO_COLOR="1",
    )
    # A hook run inside a git hook of this checkout must not see that checkout's git.
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(var, None)
    return env


def precommit(repo, env, *args):
    """`pre-commit ARGS` from the venv running this script, colours off; pre-commit's own
    error (a manifest it refuses, a clone that fails) ends the run."""
    cmd = [sys.executable, "-m", "pre_commit", *args]
    if args[0] == "run":
        cmd += ["--color", "never"]
    out = run(repo, env, cmd)
    if "An error has occurred" in out.stdout:
        sys.exit(f"{' '.join(cmd[1:])}: pre-commit failed\n{out.stdout}")
    return out


def run(cwd, env, cmd, expect=None):
    out = subprocess.run(
        cmd, cwd=cwd, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    if expect is not None and out.returncode != expect:
        sys.exit(f"{' '.join(cmd)}: exit {out.returncode}, expected {expect}\n{out.stdout}")
    return out


def git(cwd, *args, env=None):
    out = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    if out.returncode:
        sys.exit(f"git {' '.join(args)}: exit {out.returncode}\n{out.stdout}")
    return out.stdout


def commit(repo, env, message):
    git(repo, "add", "-A", env=env)
    git(repo, "commit", "--quiet", "--no-verify", "-m", message, env=env)


def edit(path, old, new):
    text = path.read_text()
    assert old in text, f"{path}: {old!r} not found"
    path.write_text(text.replace(old, new, 1))


if __name__ == "__main__":
    main()
