// The schema `specmint schema --locale TAG TYPE` prints, read by ajv with ajv-errors (its
// `errorMessage` keyword, pinned in package.json): every refused case of the spec's corpus is
// refused with messages in that locale only, each a rendered template (no `{placeholder}` and
// no `${...}` left), and the verdicts are the plain schema's.
//   node tests/peers/conformance/check_error_messages.mjs --spec task_packet --schema FILE
//        [--generated DIR] [--shows TEXT ...]
// --generated: the folder `specmint generate` wrote the spec's schema/ and corpus/ into (default
// generated/, the bundled specs'). --shows: some refusal's message quotes TEXT, each `${` in it
// written `$` WORD JOINER `{` as the schema must write a literal one for ajv-errors.
// (run by tests/peers/conformance/run.sh for each bundled spec in zh-TW, and for
// tests/fixtures/dollar_spec, whose values hold `${`).
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import ajvErrors from "ajv-errors";

const require = createRequire(import.meta.url);
const VERSION = require("ajv-errors/package.json").version;
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const args = process.argv.slice(2);
const arg = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const spec = arg("--spec");
const generated = arg("--generated") ?? join(root, "generated");
const shows = args.flatMap((a, i) => (a === "--shows" ? [args[i + 1].replaceAll("${", "$\u2060{")] : []));
const schema = JSON.parse(readFileSync(arg("--schema"), "utf8"));
const plain = JSON.parse(readFileSync(join(generated, "schema", `${spec}.schema.json`), "utf8"));
const corpus = JSON.parse(readFileSync(join(generated, "corpus", spec, "cases.json"), "utf8"));
// ajv-errors needs allErrors; the rest as check_corpus.mjs reads the schema.
const localized = ajvErrors(addFormats(new Ajv2020({ allErrors: true, unicodeRegExp: true, strict: false }))).compile(schema);
const english = addFormats(new Ajv2020({ allErrors: true, unicodeRegExp: true, strict: false })).compile(plain);
// A CJK ideograph: the message is Chinese; a placeholder or interpolation left over.
const HAN = /\p{Script=Han}/u;
const LEFT = /\{(path|pointer|code|measured|limit|expected|other|message)\b|\$\{/;
const failures = [];
const shown = new Set();
let refused = 0;
let messages = 0;
for (const c of corpus.cases) {
  const valid = localized(c.document);
  if (valid !== english(c.document)) {
    failures.push(`${c.id}: the schema with errorMessage says valid=${valid}, the plain schema does not`);
    continue;
  }
  if (valid) continue;
  refused++;
  for (const e of localized.errors) {
    messages++;
    if (e.keyword !== "errorMessage") {
      failures.push(`${c.id}: ${e.instancePath} ${e.keyword} kept ajv's own message: ${e.message}`);
    } else if (!HAN.test(e.message) || LEFT.test(e.message)) {
      failures.push(`${c.id}: ${e.instancePath}: ${e.message}`);
    }
    for (const text of shows) if (e.message.includes(text)) shown.add(text);
  }
}
for (const text of shows) {
  if (!shown.has(text)) failures.push(`no message quotes ${JSON.stringify(text)}`);
}
console.log(`ajv-errors ${VERSION} ${spec} (${arg("--schema")}): ${refused} refused cases, ${messages} messages, ${failures.length} not in the locale or not quoted`);
for (const f of failures.slice(0, 20)) console.error(`NOT LOCALISED ${spec} ${f}`);
process.exit(failures.length || refused === 0 ? 1 : 0);
