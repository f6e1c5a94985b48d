// Every case of every generated corpus gets from the WebAssembly module, under Node's
// WebAssembly, exactly the CLI's verdict: the Node binding's proof (bindings/node/test/
// corpus.test.js) over the module. SPECMINT_BINDINGS_VERDICTS names the directory
// tests/peers/bindings/verdicts.py wrote (each case as a file, with the line `specmint validate
// --format json` printed for it, less `type` and `file`); a spec directory's specs are given to
// the module as text (Spec.fromText: its `.md` and `.toml` files read here, since the module has
// no file system). SPECMINT_WASM names the module (scripts/wasm.sh prints it).
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
  return (type, data) => spec.validate(type, data);
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

test('the proof covers every corpus: the four bundled specs and spec directories', { skip: !dir && 'SPECMINT_BINDINGS_VERDICTS not set' }, () => {
  const bundled = new Set(groups.filter((g) => g.spec_dir === null).map((g) => g.type));
  assert.deepEqual([...bundled].sort(), specmint.bundledTypes());
  assert.ok(groups.some((g) => g.spec_dir !== null));
  assert.ok(groups.reduce((n, g) => n + g.cases.length, 0) > 1000);
});
