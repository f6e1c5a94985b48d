// The Node binding against ajv (2020-12, ajv-formats, the conformance check's options) on the
// emitted schema. Same process, same documents: every case of each bundled spec's conformance
// corpus as compact UTF-8 JSON in a Buffer (the text Python's json.dumps writes, as
// scripts/run_corpus.py writes it), judged in a loop, all of them, the valid ones apart and the
// invalid ones apart, by
//   * the binding: specmint.validate(TYPE, buffer).valid, every rule (a Report, errors unread);
//   * the binding, errors read: the same, and report.errors (every error, with line and column);
//   * with --before DIR, an earlier build of the binding (DIR holds its index.js and a
//     specmint.node), `.valid`: the before/after of a change in one run;
//   * ajv: JSON.parse (of a string or Buffer; an object as it is) + the compiled validator
//     (allErrors: false, ajv's default; and allErrors: true).
// The last line says whether issue 51's goals hold: on string input, the binding's `valid` at
// least 1.2× ajv first error and 1.5× ajv allErrors on every corpus, valid and invalid apart.
// Each round times every judge once, in turn (so load from other processes falls on all of
// them alike), over the documents repeated to at least --min-docs per timing; the rate is the
// median of --rounds rounds. Ratios are a judge's documents/s over ajv's. Also counted:
// documents each judge gets wrong against the corpus, over the x-only cases and over all.
//
// Run by hand (BENCHMARKS.md holds results), with the binding built in release form:
//   (cd bindings/node && npm ci && npm run build) && ./tests/peers/npm-ci.sh tests/peers/conformance
//   node scripts/bench_bindings.mjs [--rounds 21] [--min-docs 2000] [--before DIR] [--inputs string,buffer,object] [--spec task_packet]
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "tests/peers/conformance/package.json"));
const Ajv2020 = require("ajv/dist/2020.js").default;
const addFormats = require("ajv-formats").default;
const AJV_VERSION = require("ajv/package.json").version;
const specmint = createRequire(import.meta.url)(join(root, "bindings/node"));

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
}
const rounds = Number(option("--rounds", 21));
const minDocs = Number(option("--min-docs", 2000));
const beforeDir = option("--before", null);
const inputs = option("--inputs", "string,buffer,object").split(",");
const only = option("--spec", null);
// Issue 51's goals for the verdict on the text a caller holds.
const GOALS = { first: 1.2, all: 1.5 };
const before = beforeDir === null ? null : createRequire(import.meta.url)(resolve(beforeDir));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

// Every judge's median documents/s over `documents`, the judges timed in turn each round.
function rates(judges, documents) {
  const reps = Math.max(1, Math.ceil(minDocs / documents.length));
  const seconds = judges.map(() => []);
  for (let r = 0; r < rounds; r++) {
    judges.forEach(([, judge], k) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < reps; i++) for (const d of documents) judge(d);
      seconds[k].push(Number(process.hrtime.bigint() - start) / 1e9);
    });
  }
  return seconds.map((s) => (documents.length * reps) / median(s));
}

const load = loadavg().map((l) => l.toFixed(2)).join(", ");
console.log(`Node ${process.version}; ${rounds} rounds, median; at least ${minDocs} documents per timing; load average at start ${load}`);
console.log(`inputs: ${inputs.join(", ")}; goals (issue 51): string input ≥ ${GOALS.first}× ajv first error and ≥ ${GOALS.all}× ajv allErrors`);
console.log();
console.log("| spec | documents | input | judge | documents/s | × ajv (first error) | × ajv (allErrors) | wrong of x-only | wrong of all |");
console.log("|---|---|---|---|---:|---:|---:|---:|---:|");
const corpusDir = join(root, "generated/corpus");
const misses = [];
for (const dir of readdirSync(corpusDir).sort()) {
  if (only !== null && dir !== only) continue;
  const corpus = JSON.parse(readFileSync(join(corpusDir, dir, "cases.json"), "utf8"));
  const schema = JSON.parse(readFileSync(join(root, "generated", corpus.schema), "utf8"));
  const type = corpus.spec.replaceAll("_", "-");
  // The documents' text as Python's json.dumps writes it (scripts/run_corpus.py's form): JSON.parse
  // loses what JSON.stringify would need to write it back (`1.0` comes back as `1`, and the
  // corpus's whole-float cases are about exactly that), so Python writes them, one per line.
  const dump = "import json,sys\nfor c in json.load(open(sys.argv[1],encoding='utf-8'))['cases']:\n" +
    " print(json.dumps(json.dumps(c['document'],ensure_ascii=False,separators=(',',':'))))";
  const lines = execFileSync("python3", ["-c", dump, join(corpusDir, dir, "cases.json")], { encoding: "utf8", maxBuffer: 1 << 28 });
  const texts = lines.trim().split("\n").map((l) => JSON.parse(l));
  // Each document as each caller holds it: the JS string, a Buffer of its UTF-8, the parsed
  // object (for specmint, JSON.stringify first: what a caller holding an object pays).
  const held = {
    string: texts,
    buffer: texts.map((t) => Buffer.from(t)),
    object: texts.map((t) => JSON.parse(t)),
  };
  const ajvFirst = addFormats(new Ajv2020({ unicodeRegExp: true, strict: false })).compile(schema);
  const ajvAll = addFormats(new Ajv2020({ unicodeRegExp: true, strict: false, allErrors: true })).compile(schema);
  const first = `ajv ${AJV_VERSION} (first error)`;
  const all = `ajv ${AJV_VERSION} (allErrors)`;
  // The judges of one input kind: specmint's argument and ajv's, from what the caller holds.
  const forSpecmint = { string: (d) => d, buffer: (d) => d, object: (d) => JSON.stringify(d) };
  const forAjv = { string: (d) => JSON.parse(d), buffer: (d) => JSON.parse(d), object: (d) => d };
  const judgesOf = (input) => {
    const s = forSpecmint[input];
    const a = forAjv[input];
    return [
      ["specmint (binding)", (d) => specmint.validate(type, s(d)).valid],
      ["specmint (binding), errors read", (d) => specmint.validate(type, s(d)).errors.length === 0],
      ...(before === null ? [] : [["specmint (binding) before", (d) => before.validate(type, s(d)).valid]]),
      [first, (d) => ajvFirst(a(d))],
      [all, (d) => ajvAll(a(d))],
    ];
  };
  const subsets = [
    ["all", corpus.cases.map((_, i) => i)],
    ["valid", corpus.cases.flatMap((c, i) => (c.valid ? [i] : []))],
    ["invalid", corpus.cases.flatMap((c, i) => (c.valid ? [] : [i]))],
  ];
  for (const [subset, indexes] of subsets) {
    const xOnly = indexes.filter((i) => !corpus.cases[i].schema_expressible);
    for (const input of inputs) {
      const documents = held[input];
      const judges = judgesOf(input);
      const wrong = judges.map(([, judge]) => indexes.filter((i) => judge(documents[i]) !== corpus.cases[i].valid));
      const rate = rates(judges, indexes.map((i) => documents[i]));
      const rateOf = (name) => rate[judges.findIndex(([n]) => n === name)];
      judges.forEach(([name], k) => {
        const ratio = (base) => (name.startsWith("ajv") ? "—" : `${(rate[k] / rateOf(base)).toFixed(2)}×`);
        const wrongX = wrong[k].filter((i) => !corpus.cases[i].schema_expressible).length;
        console.log(
          `| ${corpus.spec} | ${subset} (${indexes.length}, ${xOnly.length} x-only) | ${input} | ${name} | ${Math.round(rate[k]).toLocaleString("en")} | ${ratio(first)} | ${ratio(all)} | ${wrongX} of ${xOnly.length} | ${wrong[k].length} of ${indexes.length} |`,
        );
      });
      // The goals hold for the verdict (`valid`) on string input, valid and invalid apart.
      if (input === "string" && subset !== "all") {
        const own = rateOf("specmint (binding)");
        for (const [base, goal] of [[first, GOALS.first], [all, GOALS.all]]) {
          const ratio = own / rateOf(base);
          if (ratio < goal) misses.push(`${corpus.spec} ${subset}: ${ratio.toFixed(2)}× ${base} (goal ${goal}×)`);
        }
      }
    }
  }
}
console.log();
if (inputs.includes("string")) {
  console.log(misses.length === 0 ? "goals met on every corpus, valid and invalid apart (string input)" : `goals missed:\n  ${misses.join("\n  ")}`);
}
