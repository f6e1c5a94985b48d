// The Node binding against ajv (2020-12, ajv-formats, the conformance check's options) on the
// emitted schema. Same process, same documents: every case of each bundled spec's conformance
// corpus as compact UTF-8 JSON in a Buffer, judged in a loop by
//   * the binding: specmint.validate(TYPE, buffer), every rule, every error (a Report);
//   * ajv: JSON.parse + the compiled validator (allErrors: false, ajv's default; and allErrors: true).
// (The documents' text is written by python3, as scripts/run_corpus.py writes it.) Best of --rounds rounds; ratios are the binding's documents/s over ajv's. Also counted:
// documents each judge gets wrong against the corpus, over the x-only cases and over all.
//
// Run by hand (BENCHMARKS.md holds results), with the binding built in release form:
//   (cd bindings/node && npm ci && npm run build) && ./tests/peers/npm-ci.sh tests/peers/conformance
//   node scripts/bench_bindings.mjs [--rounds 5]
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "tests/peers/conformance/package.json"));
const Ajv2020 = require("ajv/dist/2020.js").default;
const addFormats = require("ajv-formats").default;
const AJV_VERSION = require("ajv/package.json").version;
const specmint = createRequire(import.meta.url)(join(root, "bindings/node"));

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5;

function bestRate(judge, documents) {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (const d of documents) judge(d);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return documents.length / best;
}

console.log("| spec | judge | documents/s | binding's speed-up | wrong of x-only | wrong of all |");
console.log("|---|---|---:|---:|---:|---:|");
const corpusDir = join(root, "generated/corpus");
for (const dir of readdirSync(corpusDir).sort()) {
  const corpus = JSON.parse(readFileSync(join(corpusDir, dir, "cases.json"), "utf8"));
  const schema = JSON.parse(readFileSync(join(root, "generated", corpus.schema), "utf8"));
  const type = corpus.spec.replaceAll("_", "-");
  // The documents' text as Python's json.dumps writes it (scripts/run_corpus.py's form): JSON.parse
  // loses what JSON.stringify would need to write it back (`1.0` comes back as `1`, and the
  // corpus's whole-float cases are about exactly that), so Python writes them, one per line.
  const dump = "import json,sys\nfor c in json.load(open(sys.argv[1],encoding='utf-8'))['cases']:\n" +
    " print(json.dumps(json.dumps(c['document'],ensure_ascii=False,separators=(',',':'))))";
  const lines = execFileSync("python3", ["-c", dump, join(corpusDir, dir, "cases.json")], { encoding: "utf8", maxBuffer: 1 << 28 });
  const documents = lines.trim().split("\n").map((l) => Buffer.from(JSON.parse(l)));
  const xOnly = new Set(corpus.cases.flatMap((c, i) => (c.schema_expressible ? [] : [i])));
  const ajvFirst = addFormats(new Ajv2020({ unicodeRegExp: true, strict: false })).compile(schema);
  const ajvAll = addFormats(new Ajv2020({ unicodeRegExp: true, strict: false, allErrors: true })).compile(schema);
  const judges = [
    ["specmint (binding)", (d) => specmint.validate(type, d).valid],
    [`ajv ${AJV_VERSION} (first error)`, (d) => ajvFirst(JSON.parse(d))],
    [`ajv ${AJV_VERSION} (allErrors)`, (d) => ajvAll(JSON.parse(d))],
  ];
  const rows = judges.map(([name, judge]) => {
    const wrong = corpus.cases.flatMap((c, i) => (judge(documents[i]) === c.valid ? [] : [i]));
    return [name, bestRate(judge, documents), wrong.filter((i) => xOnly.has(i)).length, wrong.length];
  });
  const ours = rows[0][1];
  for (const [name, rate, wrongX, wrong] of rows) {
    const ratio = name.startsWith("specmint") ? "—" : `${(ours / rate).toFixed(2)}×`;
    console.log(
      `| ${corpus.spec} (${corpus.cases.length} cases, ${xOnly.size} x-only) | ${name} | ${Math.round(rate).toLocaleString("en")} | ${ratio} | ${wrongX} of ${xOnly.size} | ${wrong} of ${corpus.cases.length} |`,
    );
  }
}
