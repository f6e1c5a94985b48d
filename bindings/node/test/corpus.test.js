'use strict';
// Every case of every generated corpus gets from the binding exactly the CLI's verdict.
// SPECMINT_BINDINGS_VERDICTS names the directory tests/peers/bindings/verdicts.py wrote: each case
// as a file, with the line `specmint validate --format json` printed for it (less `type` and
// `file`). The binding reads the same bytes (a Buffer) and must give the same `valid` and the
// same errors (code, path, pointer, message, measured, limit, line, column), in order.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const specmint = require(process.env.SPECMINT_NODE_PACKAGE || '..');

const dir = process.env.SPECMINT_BINDINGS_VERDICTS;
const groups = dir ? JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) : [];
const specs = new Map();

function validator(group) {
  if (group.spec_dir === null) {
    return specmint.validate;
  }
  if (!specs.has(group.spec_dir)) {
    specs.set(group.spec_dir, specmint.Spec.load(group.spec_dir));
  }
  const spec = specs.get(group.spec_dir);
  return (type, data, locale) => spec.validate(type, data, locale);
}

for (const group of groups) {
  const where = group.spec_dir === null ? 'bundled' : path.basename(group.spec_dir);
  test(`${where}:${group.type}: every case gets the CLI verdict`, () => {
    const validate = validator(group);
    const wrong = [];
    for (const c of group.cases) {
      const got = validate(group.type, fs.readFileSync(c.file)).toJSON();
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
  const where = group.spec_dir === null ? 'bundled' : path.basename(group.spec_dir);
  test(`${where}:${group.type}: every case gets the CLI verdict in each locale`, () => {
    const validate = validator(group);
    const wrong = [];
    let checked = 0;
    for (const c of group.cases) {
      const data = fs.readFileSync(c.file);
      for (const [tag, expected] of Object.entries(c.expected_in || {})) {
        checked += 1;
        // A string too: the text path carries the locale as the Buffer path does.
        for (const input of [data, data.toString('utf8')]) {
          const got = validate(group.type, input, tag).toJSON();
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

test('the proof covers every corpus', { skip: !dir && 'SPECMINT_BINDINGS_VERDICTS not set' }, () => {
  assert.ok(groups.some((g) => g.spec_dir === null) && groups.some((g) => g.spec_dir !== null));
  assert.ok(groups.reduce((n, g) => n + g.cases.length, 0) > 1000);
});
