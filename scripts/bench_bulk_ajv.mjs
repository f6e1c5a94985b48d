// The bulk bench's peer (cli/benches/bulk.rs): ajv 8 over a JSON Lines file with the emitted
// schema, as ajv-cli runs a schema over its documents (compiled once; each document parsed and
// validated, the first error enough for a verdict), on one thread, streaming the file.
//   node scripts/bench_bulk_ajv.mjs SCHEMA FILE.jsonl   -> "valid invalid" counts on stdout
// Uses the pinned ajv that tests/peers/conformance/ installs (`npm ci` there first).
import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { createRequire } from "node:module";

const require = createRequire(new URL("../tests/peers/conformance/package.json", import.meta.url));
const Ajv2020 = require("ajv/dist/2020.js").default;
const addFormats = require("ajv-formats");
const [schemaPath, file] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const validate = addFormats(new Ajv2020({ unicodeRegExp: true, strict: false })).compile(schema);
let valid = 0;
let invalid = 0;
for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
  if (line.trim() === "") continue;
  let ok = false;
  try {
    ok = validate(JSON.parse(line));
  } catch {
    ok = false;
  }
  if (ok) valid++;
  else invalid++;
}
console.log(`${valid} ${invalid}`);
