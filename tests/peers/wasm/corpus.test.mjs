// Every case of every generated corpus gets from the WebAssembly module, under Node's
// WebAssembly, exactly the CLI's verdict: the Node binding's proof (bindings/node/test/
// corpus.test.js) over the module. SPECMINT_BINDINGS_VERDICTS names the directory
// tests/peers/bindings/verdicts.py wrote (each case as a file, with the line `specmint validate
// --format json` printed for it, less `type` and `file`); a spec directory's specs are given to
// the module as text (Spec.fromText: its `.md` and `.toml` files read here, since the module has
// no file system). SPECMINT_WASM names the module (scripts/wasm.sh prints it). Each case is also
// judged in every locale verdicts.py recorded (`validate --locale TAG`, issue 50): the bundled
// specs' and a spec directory's locale files (`<stem>.<tag>.md`, given as text with the spec)
// write the CLI's messages, as the Node binding's third argument does.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { init } from '../../../bindings/wasm/specmint.mjs';

const specmint = await init(readFileSync(process.env.SPECMINT_WASM));

const dir = process.env.SPECMINT_BINDINGS_VERDICTS;
const groups = dir ? JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) : [];
const specs = new Map();

/** The texts of a spec directory, as Spec.fromText takes them. */
export function texts(specDir) {
  const files = {};
  for (const file of readdirSync(specDir)) {
    if (file.endsWith('.md') || file.endsWith('.toml')) {
      files[file] = readFileSync(join(specDir, file), 'utf8');
    }
  }
  return files;
}

function validator(group) {
  if (group.spec_dir === null) {
    return specmint.validate;
  }
  if (!specs.has(group.spec_dir)) {
    specs.set(group.spec_dir, specmint.Spec.fromText(texts(group.spec_dir), group.spec_dir));
  }
  const spec = specs.get(group.spec_dir);
  return (type, data, locale) => spec.validate(type, data, locale);
}

for (const group of groups) {
  const where = group.spec_dir === null ? 'bundled' : basename(group.spec_dir);
  test(`${where}:${group.type}: every case gets the CLI verdict`, () => {
    const validate = validator(group);
    const wrong = [];
    for (const c of group.cases) {
      const got = validate(group.type, readFileSync(c.file)).toJSON();
      try {
        assert.deepStrictEqual(got, c.expected);
      } catch {
        wrong.push([c.id, c.expected, got]);
      }
    }
    assert.equal(wrong.length, 0, `${wrong.length} of ${group.cases.length} differ; first: ${JSON.stringify(wrong[0])}`);
  });
}

for (const group of groups) {
  const where = group.spec_dir === null ? 'bundled' : basename(group.spec_dir);
  test(`${where}:${group.type}: every case gets the CLI verdict in each locale`, () => {
    const validate = validator(group);
    const wrong = [];
    let checked = 0;
    for (const c of group.cases) {
      const data = readFileSync(c.file);
      for (const [tag, expected] of Object.entries(c.expected_in || {})) {
        checked += 1;
        // A string too, and the options form the Node binding takes.
        for (const [input, locale] of [[data, tag], [data.toString('utf8'), { locale: tag }]]) {
          const got = validate(group.type, input, locale).toJSON();
          try {
            assert.deepStrictEqual(got, expected);
          } catch {
            wrong.push([c.id, tag, expected, got]);
          }
        }
      }
    }
    assert.ok(group.cases.every((c) => Object.keys(c.expected_in || {}).length > 0), 'verdicts.py judged every case in each locale');
    assert.ok(checked >= group.cases.length);
    assert.equal(wrong.length, 0, `${wrong.length} differ; first: ${JSON.stringify(wrong[0])}`);
  });
}

test('a bundled refusal in zh-TW is Chinese, its code and path unchanged; English without a locale', () => {
  const blank = '{"packet_id":"pk-1","goal_id":"g","round":1,"from_role":"planner","to_role":"executor","objective":" ","output_format":"markdown"}';
  const english = specmint.validate('task-packet', blank).errors;
  const chinese = specmint.validate('task-packet', blank, 'zh-TW').errors;
  assert.deepEqual(chinese, [{ code: 'blank_field', path: 'objective', pointer: '/objective', message: '`objective` 不可為空白', line: 1, column: 100 }]);
  assert.deepEqual(english, [{ code: 'blank_field', path: 'objective', pointer: '/objective', message: '`objective` must not be blank', line: 1, column: 100 }]);
  // A locale the spec lacks is English; null and undefined are English; a wrong tag throws.
  assert.deepEqual(specmint.validate('task-packet', blank, 'fr').errors, english);
  assert.deepEqual(specmint.validate('task-packet', blank, null).errors, english);
  assert.deepEqual(specmint.validate('task-packet', blank, { locale: undefined }).errors, english);
  assert.throws(() => specmint.validate('task-packet', blank, 'zh TW'), (e) => e instanceof RangeError && e.message === 'specmint: `zh TW` is not a BCP 47 language tag');
  assert.throws(() => specmint.validate('task-packet', blank, 7), TypeError);
  assert.throws(() => specmint.check('task-packet', blank, 'zh-TW'), (e) => e.report.errors[0].message === chinese[0].message);
});

test('a spec given as text with its locale file writes its messages in that locale', () => {
  const md = '# Note\n\n## Fields of a `note`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `title` | non-blank string | ✔ | The title. |\n\n## Error codes\n\n| Code | When |\n|---|---|\n| `bad_note` | Not the shape. |\n| `blank` | Blank. |\n';
  const toml = '[spec]\nroot = "note"\n\n[errors]\nenum = "NoteError"\nparse = "bad_note"\nnon_blank = "blank"\n';
  const head = '# 訊息\n\n| Code | Message |\n|---|---|\n| `bad_note` | {path, select, empty {這份文件} other {`{path}`}} 格式不符 |\n';
  // A locale missing a code does not load, the code named at the table.
  assert.throws(
    () => specmint.Spec.fromText({ 'note.md': md, 'note.toml': toml, 'note.zh-TW.md': head }),
    (e) => e instanceof specmint.SpecError && e.diagnostics.some((d) => d.text.startsWith('spec/note.zh-TW.md:3:1: error: `blank` has no message in `zh-TW`')),
  );
  const spec = specmint.Spec.fromText({ 'note.md': md, 'note.toml': toml, 'note.zh-TW.md': `${head}| \`blank\` | \`{path}\` 不可為空白 |\n` });
  const blank = '{"title":" "}';
  assert.deepEqual(spec.validate('note', blank).errors, [{ code: 'blank', path: 'title', pointer: '/title', message: '`title` must not be blank', line: 1, column: 10 }]);
  assert.deepEqual(spec.validate('note', blank, 'zh-TW').errors, [{ code: 'blank', path: 'title', pointer: '/title', message: '`title` 不可為空白', line: 1, column: 10 }]);
  assert.equal(spec.validate('note', '[]', { locale: 'zh_TW.UTF-8' }).errors[0].message, '這份文件 格式不符');
  assert.equal(spec.validate('note', blank, 'de').errors[0].message, '`title` must not be blank');
  spec.free();
});

test('the proof covers every corpus: the four bundled specs and spec directories', { skip: !dir && 'SPECMINT_BINDINGS_VERDICTS not set' }, () => {
  const bundled = new Set(groups.filter((g) => g.spec_dir === null).map((g) => g.type));
  assert.deepEqual([...bundled].sort(), specmint.bundledTypes());
  assert.ok(groups.some((g) => g.spec_dir !== null));
  assert.ok(groups.reduce((n, g) => n + g.cases.length, 0) > 1000);
});
