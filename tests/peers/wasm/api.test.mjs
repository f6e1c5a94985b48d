// The WebAssembly module's API under Node's WebAssembly, held to the CLI ($SPECMINT_BIN): a
// spec of our own given as text (tests/peers/wasm/spec/signup_form.*) gets on each document
// `specmint validate --spec`'s verdict, its schema and generated Rust are what `specmint schema`
// and `specmint generate` print, and a broken spec's diagnostics are the CLI's, each at its
// line and column. SPECMINT_WASM names the module (scripts/wasm.sh prints it).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../../bindings/wasm/specmint.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = process.env.SPECMINT_BIN;
const specmint = await init(readFileSync(process.env.SPECMINT_WASM));

// A project folder with our spec at `spec/`, so the CLI runs as `--spec spec` from it and names
// the files as the module does (`Spec.fromText(files)` shows them in `spec`).
const project = mkdtempSync(join(tmpdir(), 'specmint-wasm-'));
cpSync(join(here, 'spec'), join(project, 'spec'), { recursive: true });
test.after(() => rmSync(project, { recursive: true, force: true }));

const md = readFileSync(join(here, 'spec/signup_form.md'), 'utf8');
const toml = readFileSync(join(here, 'spec/signup_form.toml'), 'utf8');
const files = { 'signup_form.md': md, 'signup_form.toml': toml };

function run(args, options = {}) {
  const r = spawnSync(cli, args, { cwd: project, encoding: 'utf8', ...options });
  assert.ok(r.status !== null && r.status < 2 || options.allowFailure, `${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r;
}

/** `specmint validate --spec spec TYPE` over each of `documents`: its JSON verdicts, less type and file. */
function cliVerdicts(type, documents) {
  const names = documents.map((d, i) => {
    const file = join(project, `doc${i}.json`);
    writeFileSync(file, d);
    return file;
  });
  const out = run(['validate', '--spec', 'spec', type, ...names, '--format', 'json']).stdout;
  return out.split('\n').slice(0, -1).map((line) => {
    const { type: _t, file: _f, ...verdict } = JSON.parse(line);
    return verdict;
  });
}

const valid = { username: 'ada', email: 'ada@example.org', display_name: 'Ada', plan: 'free' };
// Every rule of the spec broken at least once, valid documents, and a parse error; compact and
// indented (lines and columns past line 1).
const documents = [
  valid,
  { ...valid, age: 40, interests: ['chess', 'go'], address: { line1: '1 Main St', country: 'FR' } },
  { ...valid, username: '9lives' },
  { ...valid, email: 'not an address' },
  { ...valid, display_name: '   ' },
  { ...valid, display_name: 'x'.repeat(31) },
  { ...valid, age: 12 },
  { ...valid, age: 131 },
  { ...valid, plan: 'gold' },
  { ...valid, interests: ['a', 'b', 'c', 'd', 'e', 'f'] },
  { ...valid, interests: ['go', 'chess', 'go'] },
  { ...valid, address: { line1: '', country: 'fr' } },
  { ...valid, extra: true },
  { username: 'x' },
  { ...valid, username: '9', email: '@', display_name: ' ', age: 200, interests: ['a', 'a', 'b', 'c', 'd', 'e'], address: { line1: ' ', country: 'usa' } },
].flatMap((d) => [JSON.stringify(d), JSON.stringify(d, null, 2)])
  .concat(['', '{', '[1, 2]', 'null', '{"username": "ada",}', '\uFEFF{}']);

test('own spec given as text: each document gets the verdict of `specmint validate --spec`', () => {
  const spec = specmint.Spec.fromText(files);
  assert.deepEqual(spec.types, ['signup-form']);
  const expected = cliVerdicts('signup-form', documents);
  assert.equal(expected.length, documents.length);
  assert.ok(expected.filter((v) => !v.valid).length >= 20, 'most documents are refused');
  documents.forEach((d, i) => {
    assert.deepStrictEqual(spec.validate('signup-form', d).toJSON(), expected[i], `document ${i}: ${d}`);
    // Bytes judge as the text does.
    assert.deepStrictEqual(spec.validate('signup-form', new TextEncoder().encode(d)).toJSON(), expected[i]);
  });
  assert.equal(spec.check('signup-form', JSON.stringify(valid)).valid, true);
  assert.throws(() => spec.check('signup-form', '{}'), (e) => e.name === 'ValidationError' && e.report.errors.length > 0);
});

test('own spec: its JSON Schema is what `specmint schema --spec spec TYPE` prints', () => {
  const spec = specmint.Spec.fromText(files);
  assert.equal(spec.schemaText('signup-form'), run(['schema', '--spec', 'spec', 'signup-form']).stdout);
  assert.deepEqual(spec.schema('signup-form'), JSON.parse(spec.schemaText('signup-form')));
});

test('own spec: its Rust module is what `specmint generate --spec spec` writes', () => {
  run(['generate', '--spec', 'spec']);
  const written = readFileSync(join(project, 'generated/rust/signup_form.rs'), 'utf8');
  assert.equal(specmint.Spec.fromText(files).rust('signup-form'), written);
});

test('a broken spec: every diagnostic as the CLI prints it, at its line and column', () => {
  // Line 13 of the Markdown: the type of `plan`, misspelt; and an unknown key in the sidecar.
  const lines = md.split('\n');
  const row = lines.findIndex((l) => l.startsWith('| `plan` | plan |'));
  assert.ok(row > 0);
  lines[row] = lines[row].replace('| plan |', '| plann |');
  const broken = { 'signup_form.md': lines.join('\n'), 'signup_form.toml': toml.replace('[errors]', '[errors]\nmax_chrs = "too_long"') };
  const diagnostics = specmint.diagnostics(broken);
  const mdProblem = diagnostics.find((d) => d.file === 'spec/signup_form.md' && d.line === row + 1);
  assert.ok(mdProblem, JSON.stringify(diagnostics));
  assert.equal(mdProblem.column, lines[row].indexOf('plann') + 1);
  assert.match(mdProblem.message, /plann/);
  assert.ok(diagnostics.some((d) => d.file === 'spec/signup_form.toml' && d.line === toml.split('\n').indexOf('[errors]') + 2), JSON.stringify(diagnostics));

  writeFileSync(join(project, 'spec/signup_form.md'), broken['signup_form.md']);
  writeFileSync(join(project, 'spec/signup_form.toml'), broken['signup_form.toml']);
  try {
    const r = run(['validate', '--spec', 'spec', 'signup-form', '-', '--format', 'json'], { input: '{}', allowFailure: true });
    const { error } = JSON.parse(r.stdout);
    assert.equal(error.kind, 'spec');
    assert.equal(diagnostics.map((d) => d.text).join('\n'), error.message);
  } finally {
    writeFileSync(join(project, 'spec/signup_form.md'), md);
    writeFileSync(join(project, 'spec/signup_form.toml'), toml);
  }
  assert.throws(() => specmint.Spec.fromText(broken), (e) => e.name === 'SpecError' && e.diagnostics.length === diagnostics.length);
  assert.deepEqual(specmint.diagnostics(files), []);
});

test('no spec among the texts, an unknown TYPE: the messages of the CLI', () => {
  assert.throws(() => specmint.Spec.fromText({ 'notes.txt': 'hi' }), (e) => e.name === 'SpecError' && /`spec` holds no spec/.test(e.message));
  const spec = specmint.Spec.fromText(files);
  assert.throws(() => spec.validate('signup_fom', '{}'), (e) => e instanceof TypeError && e.message === 'unknown TYPE `signup_fom` (did you mean `signup-form`? specs in `spec`: signup-form)');
  assert.throws(() => specmint.validate('task-packe', '{}'), (e) => e instanceof TypeError && /did you mean `task-packet`/.test(e.message));
  spec.free();
  assert.throws(() => spec.validate('signup-form', '{}'), TypeError);
});

test('bundled specs: the same TYPEs, schemas and verdicts as the CLI', () => {
  assert.deepEqual(specmint.bundledTypes(), ['action-envelope', 'task-envelope', 'task-packet', 'taskpack']);
  for (const type of specmint.bundledTypes()) {
    assert.deepEqual(specmint.schema(type), JSON.parse(execFileSync(cli, ['schema', type], { encoding: 'utf8' })));
    const docs = ['{}', '{"x": 1}', 'not json'];
    const names = docs.map((d, i) => {
      const file = join(project, `b${i}.json`);
      writeFileSync(file, d);
      return file;
    });
    const out = spawnSync(cli, ['validate', type, ...names, '--format', 'json'], { encoding: 'utf8' }).stdout;
    out.split('\n').slice(0, -1).forEach((line, i) => {
      const { type: _t, file: _f, ...verdict } = JSON.parse(line);
      assert.deepStrictEqual(specmint.validate(type, docs[i]).toJSON(), verdict, `${type} ${docs[i]}`);
    });
  }
  assert.throws(() => specmint.validate('task-packet', 42), TypeError);
  assert.throws(() => specmint.validate('task-packet', '\uD800'), TypeError);
});

test('every state a spec passes through while typed: never a trap, the diagnostics of the CLI', () => {
  // A seeded generator: the same edits on every run.
  let seed = 52;
  const random = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pieces = ['|', '`', '\n', ' ', '-', '✔', '—', 'string', '[]', '?', '=', '"', '[', ']', '#', 'x', '..=', '1'];
  const edit = (text) => {
    const at = random(text.length + 1);
    switch (random(3)) {
      case 0: return text.slice(0, at) + pieces[random(pieces.length)] + text.slice(at);
      case 1: return text.slice(0, at) + text.slice(at + 1 + random(8));
      default: return text.slice(0, at) + text.slice(at).replace(/[a-z]/, '');
    }
  };
  let refused = 0;
  for (let i = 0; i < 400; i++) {
    const mutated = { 'signup_form.md': md, 'signup_form.toml': toml };
    const side = random(4) === 0 ? 'signup_form.toml' : 'signup_form.md';
    for (let k = 1 + random(3); k > 0; k--) mutated[side] = edit(mutated[side]);
    const diagnostics = specmint.diagnostics(mutated);
    for (const d of diagnostics) {
      assert.ok(d.file === 'spec/signup_form.md' || d.file === 'spec/signup_form.toml', JSON.stringify(d));
      assert.ok(d.line >= 0 && d.column >= 0 && d.message.length > 0);
    }
    if (diagnostics.length > 0) refused++;
    // One in ten compared with the CLI on the same files.
    if (i % 10 === 0) {
      writeFileSync(join(project, 'spec/signup_form.md'), mutated['signup_form.md']);
      writeFileSync(join(project, 'spec/signup_form.toml'), mutated['signup_form.toml']);
      const r = run(['validate', '--spec', 'spec', 'signup-form', '-', '--format', 'json'], { input: '{}', allowFailure: true });
      const answer = JSON.parse(r.stdout);
      if (diagnostics.length === 0) {
        assert.ok(answer.error === undefined, `${i}: the CLI refuses what the module loads: ${r.stdout}`);
      } else {
        assert.equal(answer.error?.message, diagnostics.map((d) => d.text).join('\n'), `edit ${i}`);
      }
    }
  }
  writeFileSync(join(project, 'spec/signup_form.md'), md);
  writeFileSync(join(project, 'spec/signup_form.toml'), toml);
  assert.ok(refused > 100, `${refused} of 400 edits refused`);
  // The module still answers.
  assert.equal(specmint.Spec.fromText(files).validate('signup-form', JSON.stringify(valid)).valid, true);
});

test('the module stays small enough for a page: under 1.2 MB gzipped', () => {
  // 0.99 MB at issue 52 (the interpreter, the four bundled specs and the code generator).
  const size = gzipSync(readFileSync(process.env.SPECMINT_WASM), { level: 9 }).length;
  assert.ok(size < 1_200_000, `${size} bytes gzipped`);
});
