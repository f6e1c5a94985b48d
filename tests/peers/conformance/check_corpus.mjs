// Node's ajv (JSON Schema 2020-12, `unicode: true`: lengths in code points, not UTF-16
// units) over the whole conformance corpus. Same contract as check_corpus.py: expressible
// cases must agree with the corpus verdict, x- only cases are counted and listed.
//   node tests/peers/conformance/check_corpus.mjs [--generated DIR] [--out FILE] [--list-x-only]
// (run by tests/peers/conformance/run.sh, after its `npm ci` of ajv beside this file).
import { readFileSync, readdirSync, existsSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const require = createRequire(import.meta.url);
const AJV_VERSION = require("ajv/package.json").version;
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const args = process.argv.slice(2);
const outAt = args.indexOf("--out");
const listX = args.includes("--list-x-only");
// --generated DIR: a directory laid out as generated/ (schema/, corpus/).
const genAt = args.indexOf("--generated");
const generated = genAt >= 0 ? args[genAt + 1] : join(root, "generated");
const corpusDir = join(generated, "corpus");
const specs = existsSync(corpusDir) ? readdirSync(corpusDir).sort() : [];
if (specs.length === 0) {
  console.error(`no corpus under ${corpusDir}/`);
  process.exit(1);
}
const results = [];
const failures = [];
for (const dir of specs) {
  const corpus = JSON.parse(readFileSync(join(corpusDir, dir, "cases.json"), "utf8"));
  const schema = JSON.parse(readFileSync(join(generated, corpus.schema), "utf8"));
  // strict: false lets the x- keywords through as annotations; unicodeRegExp keeps \u escapes
  // in `pattern` meaning code points.
  // ajv 8 counts minLength/maxLength in code points by default (its `unicode` option is
  // deprecated and defaults to true); the control run below shows the corpus would catch it.
  // ajv-formats checks `format` (date-time, date, uri, email, ...), as its users see it.
  const ajv = addFormats(new Ajv2020({ unicodeRegExp: true, strict: false }));
  const validate = ajv.compile(schema);
  const utf16 = addFormats(new Ajv2020({ unicode: false, unicodeRegExp: true, strict: false, logger: false })).compile(schema);
  const trapped = corpus.cases.filter((c) => (c.traps || []).includes("utf16") && utf16(c.document) !== c.valid);
  if (corpus.cases.some((c) => (c.traps || []).includes("utf16")) && trapped.length === 0) {
    failures.push(`node ${corpus.spec}: a UTF-16-counting ajv passes every utf16 trap case; the corpus does not bite`);
  }
  console.log(`node ajv ${corpus.spec}: control run with UTF-16 lengths (unicode: false) gets ${trapped.length} utf16-trap cases wrong, e.g. ${trapped.slice(0, 1).map((c) => c.id).join("")}`);
  const row = { consumer: `node ajv ${AJV_VERSION}`, spec: corpus.spec, cases: 0, agreed: 0, x_only: 0, x_only_ids: [] };
  for (const c of corpus.cases) {
    row.cases++;
    const valid = validate(c.document);
    if (!c.schema_expressible) {
      row.x_only++;
      row.x_only_ids.push(`${c.id} (schema: ${valid ? "valid" : "invalid"})`);
      continue;
    }
    if (valid === c.valid) row.agreed++;
    else failures.push(`node ${corpus.spec} ${c.id}: schema says valid=${valid}, corpus ${c.valid} (${c.description}) ${JSON.stringify(validate.errors)}`);
  }
  results.push(row);
}
if (outAt >= 0) writeFileSync(args[outAt + 1], JSON.stringify(results, null, 1));
for (const r of results) {
  console.log(`${r.consumer} ${r.spec}: ${r.cases} cases, ${r.agreed} agreed, ${r.x_only} x-only`);
  if (listX) for (const i of r.x_only_ids) console.log(`  x-only: ${i}`);
}
for (const f of failures) console.error(`DISAGREE ${f}`);
process.exit(failures.length ? 1 : 0);
