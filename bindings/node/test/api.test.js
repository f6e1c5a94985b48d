'use strict';
// The Node API: reports, errors, schemas, strings and Buffers.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const specmint = require(process.env.SPECMINT_NODE_PACKAGE || '..');

const root = path.resolve(__dirname, '../../..');
const acceptance = path.join(root, 'tests/acceptance/spec');
const minimal = {
  packet_id: 'pk-1',
  goal_id: 'g-1',
  round: 1,
  from_role: 'planner',
  to_role: 'executor',
  objective: 'one sentence',
  output_format: 'markdown',
};

const installed = process.env.SPECMINT_INSTALLED_IN;

test('the package is the one installed, its addon from its platform package, and no Rust is on PATH', {
  skip: !installed && 'SPECMINT_INSTALLED_IN not set (tests/peers/bindings/run.sh sets it to the fresh folder)',
}, () => {
  const modules = path.join(fs.realpathSync(installed), 'node_modules') + path.sep;
  const main = fs.realpathSync(require.resolve(process.env.SPECMINT_NODE_PACKAGE || '..'));
  assert.equal(main, `${modules}specmint${path.sep}index.js`);
  const addons = Object.keys(require.cache).filter((file) => file.endsWith('.node'));
  assert.equal(addons.length, 1, addons.join(', '));
  const suffix = require(path.join(modules, 'specmint', 'platform.js')).platformArchABI();
  assert.equal(fs.realpathSync(addons[0]), path.join(modules, `specmint-${suffix}`, `specmint.${suffix}.node`));
  for (const dir of (process.env.PATH || '').split(path.delimiter).filter(Boolean)) {
    for (const tool of ['cargo', 'rustc']) {
      assert.ok(!fs.existsSync(path.join(dir, tool)), `${tool} in ${dir}`);
    }
  }
  const report = specmint.validate('task-packet', JSON.stringify({ ...minimal, objective: '' }));
  assert.deepStrictEqual(report.errors.map((e) => [e.code, e.path]), [['blank_field', 'objective']]);
});

test('a valid packet', () => {
  const report = specmint.validate('task-packet', JSON.stringify(minimal));
  assert.equal(report.valid, true);
  assert.deepStrictEqual(report.toJSON(), { valid: true, errors: [] });
});

test('a string and a Buffer get the same verdict', () => {
  const text = JSON.stringify({ ...minimal, objective: 'é'.repeat(300), provider: 'x' }, null, 2);
  const byString = specmint.validate('task-packet', text);
  const byBuffer = specmint.validate('task-packet', Buffer.from(text));
  assert.equal(byString.valid, false);
  assert.deepStrictEqual(byString.toJSON(), byBuffer.toJSON());
  assert.ok(byString.errors[0].line >= 2);
});

test('a refused document\'s errors are those of the bytes judged, read when asked', () => {
  const buffer = Buffer.from(JSON.stringify({ ...minimal, objective: '' }));
  const report = specmint.validate('task-packet', buffer);
  assert.equal(report.valid, false);
  // The caller reuses its Buffer before reading the errors: they still describe the document.
  buffer.fill(0x20);
  const errors = report.errors;
  assert.deepStrictEqual(errors.map((e) => [e.code, e.path, e.pointer]), [['blank_field', 'objective', '/objective']]);
  assert.equal(report.errors, errors);
  assert.deepStrictEqual(JSON.parse(JSON.stringify(report)), { valid: false, errors });
  assert.match(require('node:util').inspect(report), /blank_field/);
  // A Uint8Array that is not a Buffer is read as its bytes.
  const bytes = new TextEncoder().encode(JSON.stringify(minimal));
  assert.equal(specmint.validate('task-packet', bytes).valid, true);
  assert.equal(specmint.validate('task-packet', bytes.subarray(1)).errors[0].code, 'invalid_packet');
});

test('a document that is neither a string nor bytes is a TypeError', () => {
  for (const [data, what] of [[42, 'number'], [null, 'null'], [{}, 'object'], [undefined, 'undefined']]) {
    assert.throws(() => specmint.validate('task-packet', data), (e) => e instanceof TypeError
      && e.message === `specmint: a document is a string or a Buffer, not ${what}`);
  }
});

test('check throws ValidationError with the report', () => {
  specmint.check('task-packet', JSON.stringify(minimal));
  assert.throws(() => specmint.check('task-packet', '{}'), (e) => e instanceof specmint.ValidationError && e.report.valid === false);
});

test('an unknown TYPE is a TypeError', () => {
  assert.throws(() => specmint.validate('nope', '{}'), /unknown TYPE `nope`/);
  assert.throws(() => specmint.validate('nope', '{}'), /unknown TYPE `nope`/);
  assert.throws(() => specmint.validate('task_packet', '{}'), /^TypeError: unknown TYPE `task_packet` \(did you mean `task-packet`\? one of: /);
  assert.deepStrictEqual(specmint.bundledTypes(), ['action-envelope', 'task-envelope', 'task-packet', 'taskpack']);
});

test('a spec directory', () => {
  const spec = specmint.Spec.load(acceptance);
  assert.deepStrictEqual(spec.types, ['clinic-booking', 'core-invoice', 'webhook-event']);
  assert.equal(spec.schema('webhook-event').$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(spec.validate('webhook-event', '[]').valid, false);
  assert.throws(() => spec.check('webhook-event', '{}'), specmint.ValidationError);
  assert.throws(() => spec.validate('task-packet', '{}'), TypeError);
  assert.throws(() => spec.validate('webhook_event', '{}'), /unknown TYPE `webhook_event` \(did you mean `webhook-event`\? specs in `/);
});

test('a spec directory\'s schema $comment is the CLI\'s', () => {
  // Issue 46: the spec directory as seen from the current directory, as
  // `specmint schema --spec tests/acceptance/spec webhook-event` run from the root prints it.
  const expected = '@generated by specmint from tests/acceptance/spec/webhook_event.md; do not edit, '
    + 'run `specmint schema --spec tests/acceptance/spec webhook-event`';
  const cwd = process.cwd();
  process.chdir(root);
  try {
    assert.ok(path.isAbsolute(acceptance));
    assert.equal(specmint.Spec.load(acceptance).schema('webhook-event').$comment, expected);
    assert.equal(specmint.Spec.load('tests/acceptance/spec').schema('webhook-event').$comment, expected);
  } finally {
    process.chdir(cwd);
  }
});

test('a folder with no spec throws SpecError', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specmint-node-'));
  try {
    fs.writeFileSync(path.join(dir, 'notes.md'), '# Not a spec: no sidecar\n');
    assert.throws(() => specmint.Spec.load(dir), (e) => e instanceof specmint.SpecError
      && e.message === `\`${dir}\` holds no spec: a spec is a \`<name>.md\` with its \`<name>.toml\` sidecar`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the bundled schema is the emitted one', () => {
  const emitted = JSON.parse(fs.readFileSync(path.join(root, 'generated/schema/task_packet.schema.json'), 'utf8'));
  assert.deepStrictEqual(specmint.schema('task-packet'), emitted);
});

test('a schema in a locale carries its messages as ajv-errors reads them (specmint schema --locale)', () => {
  const zh = specmint.schema('task-packet', 'zh-TW');
  assert.deepStrictEqual(zh.$defs.packet.properties.objective.errorMessage, {
    maxLength: '`objective` 超過上限 1000 個字元',
    minLength: '`objective` 不可為空白',
    pattern: '`objective` 不可為空白',
    type: '`objective` 的型別不正確',
  });
  assert.deepStrictEqual(specmint.schema('task-packet', { locale: 'zh_TW.UTF-8' }), zh);
  assert.deepStrictEqual(specmint.schema('task-packet', null), specmint.schema('task-packet'));
  assert.throws(() => specmint.schema('task-packet', 'fr'), (e) => e instanceof RangeError
    && e.message === 'specmint: `task-packet` has no messages in `fr` (it has de, zh-TW)');
  assert.throws(() => specmint.schema('task-packet', 'zh TW'), RangeError);
  const spec = specmint.Spec.load(acceptance);
  assert.throws(() => spec.schema('webhook-event', 'zh-TW'), (e) => e instanceof RangeError
    && /has no messages in `zh-TW`/.test(e.message));
});

test('a spec that does not check throws SpecError with file:line:col', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specmint-node-'));
  try {
    fs.copyFileSync(path.join(acceptance, 'webhook_event.md'), path.join(dir, 'webhook_event.md'));
    const toml = fs.readFileSync(path.join(acceptance, 'webhook_event.toml'), 'utf8');
    fs.writeFileSync(path.join(dir, 'webhook_event.toml'), `${toml}\n[nonsense]\nx = 1\n`);
    assert.throws(() => specmint.Spec.load(dir), (e) => e instanceof specmint.SpecError && /webhook_event\.toml:\d+:\d+/.test(e.message));
    assert.throws(() => specmint.Spec.load(path.join(dir, 'missing')), specmint.SpecError);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Issue 48, finding 16: a document refused for its size is not copied whole: only the first
// `limit + 1` bytes are kept for its errors, and they say what the CLI says of it.
test('a Buffer over the size limit is refused without a copy of it', () => {
  const size = 64 << 20;
  const huge = Buffer.alloc(size, 0x20);
  const before = process.memoryUsage().arrayBuffers;
  const report = specmint.validate('task-packet', huge);
  const kept = process.memoryUsage().arrayBuffers - before;
  assert.equal(report.valid, false);
  assert.ok(kept < 8 << 20, `the report keeps ${kept} bytes of a ${size}-byte document`);
  assert.deepStrictEqual(
    report.errors.map((e) => [e.code, e.path, e.measured, e.limit, e.message]),
    [['packet_too_large', '', size, 1 << 20, `the packet is ${size} bytes (max 1048576) and was not parsed`]],
  );
});

test('a string over the size limit gets the Buffer\'s errors, its length counted in UTF-8', () => {
  const text = `{"objective": "${'渡'.repeat(400000)}"}`;
  const byString = specmint.validate('task-packet', text);
  const byBuffer = specmint.validate('task-packet', Buffer.from(text));
  assert.equal(byString.valid, false);
  assert.deepStrictEqual(byString.toJSON(), byBuffer.toJSON());
  assert.equal(byString.errors[0].measured, Buffer.byteLength(text));
  assert.equal(byString.errors[0].code, 'packet_too_large');
});

// A lone surrogate is no Unicode text: a TypeError, as Python raises for it, not a verdict on
// the U+FFFD N-API would have read.
test('a string with a lone surrogate is a TypeError', () => {
  assert.throws(
    () => specmint.validate('task-packet', `{"objective": "a\ud800b"}`),
    { name: 'TypeError', message: /lone surrogate at index 16/ },
  );
  // A pair is one character and is judged.
  assert.equal(specmint.validate('task-packet', `{"objective": "a\ud83d\ude00"}`).valid, false);
  // Found where the written UTF-8 holds a U+FFFD: a lone surrogate among valid text, in a
  // valid packet, at either end, and in a string long enough to take a buffer of its own.
  const packet = JSON.parse(fs.readFileSync(path.join(root, 'generated/corpus/task_packet/cases.json'), 'utf8'))
    .cases.find((c) => c.valid).document;
  // (JSON.stringify would write a lone surrogate as an escape, which is text.)
  const lone = JSON.stringify({ ...packet, objective: 'fix @ it' }).replace('@', '\udfff');
  assert.throws(() => specmint.validate('task-packet', lone), { name: 'TypeError' });
  assert.throws(() => specmint.validate('task-packet', `\ud800${JSON.stringify(packet)}`), { name: 'TypeError' });
  assert.throws(() => specmint.validate('task-packet', `${JSON.stringify(packet)}\udbff`), { name: 'TypeError' });
  const long = JSON.stringify({ ...packet, objective: `${'x'.repeat(70000)}@` }).replace('@', '\ud800');
  assert.throws(() => specmint.validate('task-packet', long), { name: 'TypeError' });
});

// A U+FFFD the document really holds is text like any other: judged, as its Buffer is.
test('a string holding U+FFFD itself is judged as its UTF-8 is', () => {
  const packet = JSON.parse(fs.readFileSync(path.join(root, 'generated/corpus/task_packet/cases.json'), 'utf8'))
    .cases.find((c) => c.valid).document;
  for (const objective of ['a \ufffd b', '\ufffd'.repeat(3), `${'\u4e2d'.repeat(5)}\ufffd`]) {
    const text = JSON.stringify({ ...packet, objective });
    const byString = specmint.validate('task-packet', text);
    assert.equal(byString.valid, true, objective);
    assert.deepStrictEqual(byString.toJSON(), specmint.validate('task-packet', Buffer.from(text)).toJSON());
  }
  // And refused where its Buffer is: too many characters for the objective's cap.
  const tooLong = JSON.stringify({ ...packet, objective: '\ufffd'.repeat(1001) });
  const report = specmint.validate('task-packet', tooLong);
  assert.equal(report.valid, false);
  assert.deepStrictEqual(report.toJSON(), specmint.validate('task-packet', Buffer.from(tooLong)).toJSON());
});

test('a locale writes the spec\'s messages and nothing else', () => {
  const doc = JSON.stringify({ ...minimal, objective: ' ', to_role: 'planner' });
  const english = specmint.validate('task-packet', doc).toJSON();
  const chinese = specmint.validate('task-packet', doc, 'zh-TW').toJSON();
  assert.deepEqual(chinese.errors.map((e) => e.message), [
    '`objective` 不可為空白',
    '接收角色 `to_role` 必須與寄件角色 `from_role` 不同：不能把封包交給自己',
  ]);
  const strip = (v) => v.errors.map(({ message, ...rest }) => rest);
  assert.deepEqual(strip(chinese), strip(english));
  assert.deepEqual(specmint.validate('task-packet', Buffer.from(doc), 'zh_TW.UTF-8').toJSON(), chinese);
  assert.deepEqual(specmint.validate('task-packet', doc, { locale: 'zh-TW' }).toJSON(), chinese);
  assert.deepEqual(specmint.validate('task-packet', doc, {}).toJSON(), english);
  for (const same of [undefined, null, 'C', 'en-US', 'fr']) {
    assert.deepEqual(specmint.validate('task-packet', doc, same).toJSON(), english);
  }
  assert.throws(() => specmint.check('task-packet', doc, 'zh-TW'), (e) => e instanceof specmint.ValidationError
    && e.message.includes('不可為空白'));
  assert.throws(() => specmint.validate('task-packet', doc, 'zh TW'), RangeError);
  assert.throws(() => specmint.validate('task-packet', doc, 42), TypeError);
});
