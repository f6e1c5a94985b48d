#!/usr/bin/env python3
"""Prints one Markdown table of ratios against issue 5's targets from a bench run's results
directory (target/bench-results/), then the raw numbers behind it.

Times are criterion's median point estimates, all from the same process run per bench
binary. Ratios of two contenders on the same fixture are `other / specmint` (higher is
better for specmint) except the floor ratio, `specmint / serde_floor` (lower is better).
"""
import json
import pathlib
import statistics
import sys

out = pathlib.Path(sys.argv[1])
crit = out / "criterion"


def load_criterion():
    """{(group, function): median ns}"""
    times = {}
    for bench in crit.rglob("new/benchmark.json"):
        meta = json.loads(bench.read_text())
        est = json.loads((bench.parent / "estimates.json").read_text())
        times[(meta["group_id"], meta["function_id"] or meta["value_str"])] = est["median"]["point_estimate"]
    return times


def fmt_ns(ns):
    if ns is None:
        return "—"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns:.0f} ns"


times = load_criterion()
allocs = [json.loads(l) for l in (out / "alloc.jsonl").read_text().splitlines() if l.strip()]
compile_cost = json.loads((out / "compile.json").read_text()) if (out / "compile.json").exists() else None

# Fixtures and contenders, in the order criterion saw them.
verdict = {}
for (group, fn), ns in times.items():
    parts = group.split("/")
    if parts[0] in ("verdict", "validate_only") and len(parts) == 3:
        verdict.setdefault((parts[0], parts[1], parts[2]), {})[fn] = ns
valid = {(a["spec"], a["fixture"]): a for a in allocs if a["contender"] == "specmint"}
fixture_valid = {}
for a in allocs:
    if a["contender"] == "specmint":
        fixture_valid[(a["spec"], a["fixture"])] = a["validate_only_allocs"] == 0

def load_instructions():
    """{(step, spec, fixture): {contender: instructions per call}} from the callgrind run
    (benches/instructions.rs under valgrind: one dump per measurement, in ids.txt order)."""
    d = out / "instructions"
    ids_file = d / "ids.txt"
    if not ids_file.exists():
        return {}
    ids = [json.loads(l) for l in ids_file.read_text().splitlines() if l.strip()]
    dumps = sorted(d.glob("cg.*.*"), key=lambda f: int(f.name.rsplit(".", 1)[1]))
    if len(dumps) != len(ids):
        sys.exit(f"{d}: {len(dumps)} callgrind dumps for {len(ids)} measurements")
    result = {}
    for i, f in zip(ids, dumps):
        total = next(int(l.split()[1]) for l in f.read_text().splitlines() if l.startswith("summary:"))
        result.setdefault((i["step"], i["spec"], i["fixture"]), {})[i["contender"]] = total / i["iters"]
    return result


instr = load_instructions()

rows = []  # (measure, time value, instructions value, target, met by time, met by instructions)


def verdict_word(met):
    return "—" if met is None else ("met" if met else "**missed**")


def row(measure, value, target, met, ivalue="—", imet=None):
    rows.append((measure, value, ivalue, target, verdict_word(met), verdict_word(imet)))


def ratios(t):
    """(measure suffix, ratio, target, need, lower is better) for one fixture's contenders."""
    sm = t.get("specmint")
    out_ = []
    if sm and "serde_floor" in t:
        out_.append(("specmint ÷ serde floor", sm / t["serde_floor"]))
    for other in ["jsonschema", "garde", "hand_written", "hand_written_tuned"]:
        if sm and other in t:
            out_.append((f"{other} ÷ specmint", t[other] / sm))
    # Like for like: the first-error verdict against specmint's verdict alone, every error
    # against specmint's full report.
    if "specmint_verdict" in t and "jsonschema" in t:
        out_.append(("jsonschema ÷ specmint_verdict", t["jsonschema"] / t["specmint_verdict"]))
    if sm and "jsonschema_all_errors" in t:
        out_.append(("jsonschema_all_errors ÷ specmint", t["jsonschema_all_errors"] / sm))
    return dict(out_)


targets = {"specmint ÷ serde floor": ("≤ 1.10× (valid)", 1.10, True),
           "jsonschema ÷ specmint": ("≥ 3×", 3.0, False),
           "jsonschema ÷ specmint_verdict": ("≥ 3×", 3.0, False),
           "jsonschema_all_errors ÷ specmint": ("≥ 3×", 3.0, False),
           "garde ÷ specmint": ("≥ 1×", 1.0, False),
           "hand_written ÷ specmint": ("≥ 1×", 1.0, False),
           "hand_written_tuned ÷ specmint": ("info", None, False)}

specs_fixtures = sorted({(s, f) for (kind, s, f) in list(verdict) + list(instr) if kind == "verdict"},
                        key=lambda sf: (sf[0], ["minimal", "full", "cjk_near_cap", "invalid_many"].index(sf[1])
                                        if sf[1] in ["minimal", "full", "cjk_near_cap", "invalid_many"] else 9, sf[1]))
for spec, fixture in specs_fixtures:
    by_time = ratios(verdict.get(("verdict", spec, fixture), {}))
    by_instr = ratios(instr.get(("verdict", spec, fixture), {}))
    is_valid = "invalid" not in fixture
    for measure, (target, need, lower) in targets.items():
        if measure not in by_time and measure not in by_instr:
            continue
        if lower and not is_valid:
            target, need = "info", None

        def met(r):
            if r is None or need is None:
                return None
            return r <= need if lower else r >= need

        rt, ri = by_time.get(measure), by_instr.get(measure)
        row(f"{spec}/{fixture}: {measure}", f"{rt:.2f}×" if rt else "—", target, met(rt),
            f"{ri:.2f}×" if ri else "—", met(ri))

for (spec, fixture), a in sorted(valid.items()):
    if "invalid" in fixture:
        continue
    n = a["validate_only_allocs"]
    row(f"{spec}/{fixture}: allocations in validate (valid)", str(n), "0", n == 0, "", None)

cg = {fn: ns for (g, fn), ns in times.items() if g == "codegen"}
if "rows_1000" in cg:
    row("codegen: 1,000-row spec load+check+emit", fmt_ns(cg["rows_1000"]), "< 100 ms", cg["rows_1000"] < 100e6)
if "rows_1000" in cg and "rows_10000" in cg:
    g = cg["rows_10000"] / cg["rows_1000"]
    row("codegen: 10,000 rows ÷ 1,000 rows", f"{g:.2f}×", "< 12×", g < 12)
if compile_cost:
    cpu = {k: statistics.median(v) for k, v in compile_cost["cpu"].items()}
    over = cpu["with_validate"] / cpu["serde_only"] - 1
    ins = compile_cost.get("instructions")
    iover = ins["with_validate"] / ins["serde_only"] - 1 if ins else None
    row(f"derive compile cost, {compile_cost['structs']} structs (over serde derive only)",
        f"+{over * 100:.0f}% CPU", "< +25%", over < 0.25,
        f"+{iover * 100:.1f}% rustc instructions" if ins else "—", (iover < 0.25) if ins else None)

print("## Ratios against the targets\n")
print("Time: criterion medians. Instructions: callgrind, per call (deterministic; the")
print("shared machine moves times by up to 2×, not instruction counts).\n")
print("| measure | measured (time) | measured (instructions) | target | met (time) | met (instructions) |")
print("|---|---|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")



def per_step_table(title, results, fmt):
    """One row per step and fixture, one column per contender seen in `results`."""
    print(f"\n## {title}\n")
    names = []
    for t in results.values():
        for c in t:
            if c not in names:
                names.append(c)
    print("| step | fixture | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for kind in ("verdict", "validate_only"):
        for spec, fixture in specs_fixtures:
            t = results.get((kind, spec, fixture), {})
            print(f"| {kind} | {spec}/{fixture} | "
                  + " | ".join(fmt(t[c]) if c in t else "—" for c in names) + " |")


per_step_table("Times (criterion median)", verdict, fmt_ns)
if instr:
    per_step_table("Instructions per call (callgrind)", instr, lambda n: f"{n:,.0f}")

print("\n## Allocations per call\n")
print("| fixture | contender | bytes → verdict | validate only |")
print("|---|---|---|---|")
for a in allocs:
    v = a["validate_only_allocs"]
    print(f"| {a['spec']}/{a['fixture']} | {a['contender']} | {a['verdict_allocs']} | {'—' if v is None else v} |")

print("\n## Codegen (load + check + emit)\n")
print("| spec | time | growth vs previous size |")
print("|---|---|---|")
prev = None
for name in ["bundled", "rows_10", "rows_100", "rows_1000", "rows_10000"]:
    if name in cg:
        growth = f"{cg[name] / prev:.1f}× (10× rows)" if prev and name != "rows_10" else ""
        print(f"| {name} | {fmt_ns(cg[name])} | {growth} |")
        if name.startswith("rows_"):
            prev = cg[name]

if compile_cost:
    print("\n## Derive compile cost\n")
    print("| crate | CPU s (median) | wall s (median) | runs (CPU) |")
    print("|---|---|---|---|")
    for name in ["serde_only", "with_validate"]:
        c = compile_cost["cpu"][name]
        w = compile_cost["wall"][name]
        print(f"| {name} | {statistics.median(c):.2f} | {statistics.median(w):.2f} | "
              + ", ".join(f"{x:.2f}" for x in c) + " |")
    if compile_cost.get("instructions"):
        print("\n| crate | rustc instructions (callgrind, all threads) |")
        print("|---|---|")
        for name in ["serde_only", "with_validate"]:
            print(f"| {name} | {compile_cost['instructions'][name]:,} |")
