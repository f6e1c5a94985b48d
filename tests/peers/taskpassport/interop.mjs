// TaskPack interop between specmint and task-passport 0.3.1, the reference implementation
// (pinned in package-lock.json; its CLI does not load, so its library modules are imported by
// file path). Run by ./test.sh:
//
//   node tests/peers/taskpassport/interop.mjs --specmint target/debug/specmint --work DIR
//
// 1. task-passport makes the 18 kinds of pack of issue 12 in both encodings (its own output,
//    never hand-written); specmint judges each conformant, and `specmint validate taskpack`
//    accepts each flat form.
// 2. specmint converts each to the other encoding and back: the bytes are stable both ways, its
//    flat form equals task-passport's for the same bag, and task-passport reads specmint's packs
//    (readZip + verifyBag, fromFlat strict) and its conformance() passes them.
// 3. Every row of the departures table in spec/taskpack.md: the reference behaves as the row
//    says, and specmint follows the spec.
// 4. `specmint taskpack pack` from its passport store, both encodings: task-passport reads each
//    pack (verifyBag, strict fromFlat), its conformance() passes it, and its own sealing changes
//    nothing; the asks are recorded in a passport task-passport's store opens.
// Exits 1 on any failure, after printing every result.

import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { finish, setup, test } from './harness.mjs'

const here = fileURLToPath(new URL('.', import.meta.url))
const lib = join(here, 'node_modules', 'task-passport')
const { assembleBag, buildBag, readZip, recordSentAsks, verifyBag, writeZip } = await import(join(lib, 'bag.js'))
const { conformance, fromFlat, toFlat } = await import(join(lib, 'taskpack.js'))

const { specmint, work } = setup()

function run(...args) {
  const out = spawnSync(specmint, args, { encoding: 'utf8', maxBuffer: 1 << 26 })
  if (out.error) throw out.error
  return out
}

function judge(file) {
  const out = run('taskpack', 'conformance', file, '--format', 'json')
  assert.notEqual(out.status, 1, 'conformance never exits 1')
  return { status: out.status, verdict: JSON.parse(out.stdout) }
}

function assertConformant(file) {
  const { status, verdict } = judge(file)
  const failed = verdict.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.reason}`)
  assert.equal(status, 0, `specmint: ${file} not conformant: ${failed.join('; ')}`)
}

function assertFailsOnly(file, ids, reasonPattern) {
  const { status, verdict } = judge(file)
  assert.equal(status, 2, `specmint exit for ${file}`)
  assert.deepEqual(verdict.failed, ids)
  if (reasonPattern) {
    const reasons = verdict.checks.filter((c) => ids.includes(c.id)).map((c) => c.reason).join('; ')
    assert.match(reasons, reasonPattern)
  }
}

function convert(input, output) {
  const out = run('taskpack', 'convert', input, output)
  assert.equal(out.status, 0, `specmint convert ${input} ${output}: ${out.stderr}`)
  return readFileSync(output)
}

const bytesOf = (file) => readFileSync(file)
const readPack = (file) => (file.endsWith('.json') ? fromFlat(readFileSync(file, 'utf8'), { strict: true }) : readZip(readFileSync(file)))
const sha256 = (data) => createHash('sha256').update(data).digest('hex')

function refConformance(entries) {
  return conformance(entries)
}

function assertReferenceAccepts(file) {
  const entries = readPack(file)
  const bag = verifyBag(entries)
  assert.ok(bag.ok, `task-passport verifyBag(${file}): ${bag.errors.join('; ')}`)
  const report = refConformance(entries)
  const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.id} ${c.detail}`)
  assert.ok(report.ok, `task-passport conformance(${file}): ${failed.join('; ')}`)
}

function sameEntries(left, right) {
  assert.deepEqual([...left.keys()].sort(), [...right.keys()].sort())
  for (const key of left.keys()) assert.ok(Buffer.compare(left.get(key), right.get(key)) === 0, `entry ${key} differs`)
}

/* ---------- the 18 kinds, made by task-passport ---------- */

let serial = 0
function state(extra = {}) {
  serial += 1
  const now = '2026-08-16T03:11:04Z'
  // The shape task-passport's own store writes (core.js create + store.js save).
  return {
    spec: '2origin/0.1',
    kind: 'task.origin',
    id: `TP-INTR-${String(serial).padStart(4, '0')}`,
    title: `季度报告 ${serial}`,
    goal: 'Ship the Q3 customer report as PDF',
    version: 3,
    machine_id: 'mbp-14',
    harness: 'claude-code',
    scope: '',
    created_at: now,
    updated_at: now,
    current_state: 'data pulled, charts half done',
    facts: [],
    decisions: [],
    actions: [],
    artifacts: [],
    verification: '',
    next_steps: ['finish the charts'],
    learnings: [],
    ...extra,
  }
}

const binary = Buffer.from([0, 1, 2, 255, 254, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])
const facts = {
  universal: { claim: 'the customer wants PDF, not slides', scope: 'universal', verified: true },
  org: { claim: 'reports go through the 2025 template', scope: 'org', verified: true, source: '张老师', verified_by: 'ds' },
  machine: { claim: 'the renderer is at /opt/r and runs', scope: 'machine', verified: true },
  unscoped: { claim: 'port 8080 is free', verified: true },
}
const ask = (id, extra = {}) => ({ id, to: 'peer', what: `question ${id}: which quarter counts?`, why: 'fiscal vs calendar', accept: 'a date range with both ends', ...extra })

function lineage(st, hops) {
  const chain = []
  for (let hop = hops - 1; hop >= 1; hop -= 1) chain.push(`TP-UPST-${hop}@${hop + 1}`)
  chain.reverse()
  chain.push(`${st.id}@${st.version}`)
  return { root_id: hops === 1 ? st.id : chain[0].split('@')[0], from_version: st.version, chain }
}

function viaAssemble(bagArgs, hops) {
  // A landed passport packed again: the kept lineage extended by this hop (§3.1). buildBag
  // always starts a chain of one, so the longer chains go through assembleBag, the chokepoint
  // every encoding passes through.
  const base = JSON.parse(buildBag(bagArgs).get('data/passport.json').toString('utf8'))
  base.lineage = lineage(bagArgs.state, hops)
  return assembleBag(base, bagArgs.files || [])
}

const kinds = {
  'handoff-minimal': () => buildBag({ state: state(), actor: 'ds', machine: 'mbp-14' }),
  'handoff-universal-facts': () => buildBag({ state: state({ facts: [facts.universal] }), actor: 'ds', machine: 'mbp-14' }),
  'handoff-org-facts': () => buildBag({ state: state({ facts: [facts.org] }), actor: 'ds', machine: 'mbp-14' }),
  'handoff-machine-facts-sealed': () => buildBag({ state: state({ facts: [facts.machine] }), actor: 'ds', machine: 'mbp-14' }),
  'handoff-unscoped-facts-sealed': () => buildBag({ state: state({ facts: [facts.unscoped, facts.universal] }), actor: 'ds', machine: 'mbp-14' }),
  'handoff-rich-state': () => buildBag({
    state: state({
      facts: Object.values(facts),
      decisions: [{ what: 'use the 2025 template', why: 'the customer signed it off' }],
      actions: [{ at: '2026-08-15T10:00:00Z', what: 'pulled the data' }],
      artifacts: ['git@example.invalid:reports.git#3f2a9c1'],
      verification: 'charts compared against the June report',
      learnings: ['the renderer needs fonts installed'],
    }),
    actor: 'ds', machine: 'mbp-14', note: '交接：图表做了一半',
  }),
  'handoff-open-asks': () => buildBag({ state: state(), actor: 'ds', machine: 'mbp-14', asks: [ask('a1'), ask('a2')] }),
  'handoff-asks-recorded-home': () => {
    const st = state()
    const asks = [ask('a1')]
    return buildBag({ state: { ...st, asks: recordSentAsks(st.asks, asks) }, actor: 'ds', machine: 'mbp-14', asks })
  },
  'receipt-answered': () => buildBag({
    state: state(), kind: 'receipt', actor: '张老师', machine: '客户机',
    asks: [ask('a1', { status: 'answered', answer: '2026-07-01 to 2026-09-30', answered_by: '张老师@客户机', answered_at: '2026-08-16T13:10:20Z' })],
  }),
  'receipt-dropped-ask': () => buildBag({
    state: state(), kind: 'receipt', actor: '张老师', machine: '客户机',
    asks: [ask('a1', { status: 'dropped' }), ask('a2')],
  }),
  'handoff-landing-checks': () => buildBag({
    state: state(), actor: 'ds', machine: 'mbp-14',
    landingChecks: [
      { id: 'c1', check: 'this machine can render PDF', how: 'r --version', required: true },
      { id: 'c2', check: 'fonts are installed', how: 'fc-list | grep Noto', required: false },
    ],
  }),
  'handoff-utf8-attachment': () => buildBag({
    state: state(), actor: 'ds', machine: 'mbp-14',
    files: [{ name: 'brief.md', data: Buffer.from('# 简报\n\n客户要 PDF。\tTabs and\r\nCRLF stay.\n', 'utf8') }],
  }),
  'handoff-binary-attachment': () => buildBag({
    state: state(), actor: 'ds', machine: 'mbp-14', files: [{ name: 'logo.png', data: binary }],
  }),
  'handoff-folder-luggage': () => buildBag({
    state: state(), actor: 'ds', machine: 'mbp-14',
    files: [
      { name: '资料/notes.md', data: Buffer.from('notes\n') },
      { name: '资料/empty.txt', data: Buffer.alloc(0) },
      { name: '资料/raw.bin', data: binary },
    ],
  }),
  'lineage-1': () => viaAssemble({ state: state(), actor: 'ds', machine: 'mbp-14' }, 1),
  'lineage-2': () => viaAssemble({ state: state({ facts: [facts.universal] }), actor: 'ds', machine: 'mbp-14' }, 2),
  'lineage-3': () => viaAssemble({ state: state(), actor: 'ds', machine: 'mbp-14', asks: [ask('a1')] }, 3),
  'lineage-4-receipt': () => viaAssemble({
    state: state(), kind: 'receipt', actor: '张老师', machine: '客户机',
    asks: [ask('a1', { status: 'answered', answer: 'calendar quarter' })],
  }, 4),
}
assert.equal(Object.keys(kinds).length, 18)

const reference = join(work, 'reference')
const converted = join(work, 'specmint')
mkdirSync(reference)
mkdirSync(converted)

for (const [name, make] of Object.entries(kinds)) {
  const entries = make()
  const zip = join(reference, `${name}.taskpack`)
  const flat = join(reference, `${name}.taskpack.json`)
  writeFileSync(zip, writeZip(entries))
  writeFileSync(flat, toFlat(entries))

  test(`reference ${name}: specmint judges both encodings conformant`, () => {
    assertConformant(zip)
    assertConformant(flat)
  })

  test(`reference ${name}: \`specmint validate taskpack\` accepts the flat form`, () => {
    const out = run('validate', 'taskpack', flat, '--format', 'json')
    assert.equal(out.status, 0, `specmint validate taskpack ${flat}: ${out.stdout}`)
    assert.deepEqual(JSON.parse(out.stdout).errors, [])
  })

  test(`reference ${name}: zip -> flat -> zip -> flat is stable, and the flat form is task-passport's`, () => {
    const f1 = convert(zip, join(converted, `${name}.z.taskpack.json`))
    assert.ok(Buffer.compare(f1, Buffer.from(toFlat(readZip(bytesOf(zip))), 'utf8')) === 0, 'specmint flat differs from toFlat')
    const z2 = convert(join(converted, `${name}.z.taskpack.json`), join(converted, `${name}.z.taskpack`))
    const f3 = convert(join(converted, `${name}.z.taskpack`), join(converted, `${name}.z2.taskpack.json`))
    const z4 = convert(join(converted, `${name}.z2.taskpack.json`), join(converted, `${name}.z2.taskpack`))
    assert.ok(Buffer.compare(f1, f3) === 0, 'flat bytes changed')
    assert.ok(Buffer.compare(z2, z4) === 0, 'zip bytes changed')
    sameEntries(readZip(z2), readZip(bytesOf(zip)))
  })

  test(`reference ${name}: flat -> zip -> flat gives back task-passport's bytes`, () => {
    const z1 = convert(flat, join(converted, `${name}.f.taskpack`))
    const f2 = convert(join(converted, `${name}.f.taskpack`), join(converted, `${name}.f.taskpack.json`))
    assert.ok(Buffer.compare(f2, bytesOf(flat)) === 0, 'flat bytes changed')
    const z3 = convert(join(converted, `${name}.f.taskpack.json`), join(converted, `${name}.f2.taskpack`))
    assert.ok(Buffer.compare(z1, z3) === 0, 'zip bytes changed')
  })

  test(`specmint's ${name}: task-passport reads both encodings and passes them`, () => {
    assertReferenceAccepts(join(converted, `${name}.z.taskpack`))
    assertReferenceAccepts(join(converted, `${name}.z.taskpack.json`))
    assertReferenceAccepts(join(converted, `${name}.f.taskpack`))
  })
}

/* ---------- the attachments of the round-trip acceptance, through both implementations ---------- */

test('0-byte, binary, CJK-named and 3 MiB attachments: stable both ways, read by task-passport', () => {
  const big = Buffer.alloc(3 * 1048576)
  for (let i = 0; i < big.length; i += 1) big[i] = (i * 2654435761) >>> 24
  const entries = buildBag({
    state: state(), actor: 'ds', machine: 'mbp-14',
    files: [
      { name: 'empty.txt', data: Buffer.alloc(0) },
      { name: 'logo.png', data: binary },
      { name: '设计说明.md', data: Buffer.from('中文说明\n', 'utf8') },
      { name: 'dump.bin', data: big },
    ],
  })
  const zip = join(work, 'big.taskpack')
  writeFileSync(zip, writeZip(entries))
  assertConformant(zip)
  const f1 = convert(zip, join(work, 'big.taskpack.json'))
  const z2 = convert(join(work, 'big.taskpack.json'), join(work, 'big2.taskpack'))
  const f3 = convert(join(work, 'big2.taskpack'), join(work, 'big3.taskpack.json'))
  const z4 = convert(join(work, 'big3.taskpack.json'), join(work, 'big4.taskpack'))
  assert.ok(Buffer.compare(f1, f3) === 0 && Buffer.compare(z2, z4) === 0)
  assertConformant(join(work, 'big.taskpack.json'))
  // The reference reads specmint's flat form with a 3 MiB attachment inline, strictly, and gets
  // the same bag back; its own conformance() fails only C9 there (departure D5).
  sameEntries(fromFlat(f1.toString('utf8'), { strict: true }), readZip(z2))
  sameEntries(readZip(z2), entries)
  const report = refConformance(readZip(z2))
  assert.deepEqual(report.checks.filter((c) => !c.ok).map((c) => c.id), ['C9'])
})

/* ---------- the retired .tpx/0.1 form: read as the reference's fromFlat maps it, never written ---------- */

test('a .tpx/0.1 file: specmint maps it as fromFlat does, judges it not conformant as written (C0), never writes one', () => {
  const brief = Buffer.from('hi\n')
  const tpx = {
    tpx: '0.1',
    kind: 'receipt',
    issued_at: '2026-08-01T08:00:00Z',
    origin: { actor: 'ds', machine: 'mbp-14', harness: 'cli' },
    peer: { note: 'sent before TaskPack had a name' },
    passport: state(),
    facts: [facts.universal, facts.org],
    asks: [ask('a1')],
    attachments: [{ name: 'brief.txt', encoding: 'utf8', sha256: sha256(brief), bytes: brief.length, data: brief.toString() }],
  }
  const file = join(work, 'legacy.tpx')
  writeFileSync(file, JSON.stringify(tpx))
  const ours = convert(file, join(work, 'legacy.taskpack.json'))
  assert.equal(ours.toString('utf8'), toFlat(fromFlat(readFileSync(file, 'utf8'))))
  assertFailsOnly(file, ['C0'], /retired \.tpx\/0\.1/)
  const refused = run('taskpack', 'convert', join(work, 'legacy.taskpack.json'), join(work, 'again.tpx'))
  assert.equal(refused.status, 2)
  assert.match(refused.stderr, /retired encoding, read but never written/)
})

/* ---------- departures: where task-passport departs from the spec (spec/taskpack.md) ---------- */

const good = () => buildBag({ state: state({ facts: [facts.universal] }), actor: 'ds', machine: 'mbp-14', asks: [ask('a1')] })

/** A bag with a changed pack object and manifests recomputed, unsealed and unrefused. */
function rebag(entries, mutate, files = []) {
  const passport = JSON.parse(entries.get('data/passport.json').toString('utf8'))
  mutate(passport)
  const payload = new Map([['data/passport.json', Buffer.from(`${JSON.stringify(passport, null, 2)}\n`)]])
  for (const [path, data] of entries) if (path.startsWith('data/files/')) payload.set(path, data)
  for (const { name, data } of files) payload.set(`data/files/${name}`, data)
  const manifest = [...payload].map(([path, data]) => `${sha256(data)}  ${path}`).join('\n') + '\n'
  const octets = [...payload.values()].reduce((sum, data) => sum + data.length, 0)
  const info = entries.get('bag-info.txt').toString('utf8').replace(/Payload-Oxum: .*/, `Payload-Oxum: ${octets}.${payload.size}`)
  const tags = new Map([
    ['bagit.txt', entries.get('bagit.txt')],
    ['bag-info.txt', Buffer.from(info)],
    ['manifest-sha256.txt', Buffer.from(manifest)],
  ])
  const tagManifest = [...tags].map(([path, data]) => `${sha256(data)}  ${path}`).join('\n') + '\n'
  return new Map([...tags, ['tagmanifest-sha256.txt', Buffer.from(tagManifest)], ...payload])
}

function departure(id, file, refBehaves, specmintFails, reason) {
  test(`departure ${id}`, () => {
    refBehaves()
    assertFailsOnly(file, specmintFails, reason)
  })
}

{
  // D1: any truthy `taskpack` value is accepted.
  const flat = JSON.parse(toFlat(good()))
  flat.taskpack = '9.9'
  const file = join(work, 'd1.taskpack.json')
  writeFileSync(file, `${JSON.stringify(flat, null, 2)}\n`)
  departure('D1 taskpack version', file, () => {
    assert.ok(refConformance(fromFlat(readFileSync(file, 'utf8'), { strict: true })).ok)
  }, ['C1'], /`taskpack` is `"9.9"`/)
}
{
  // D2: transcript and instruction keys are packed and pass.
  const passport = JSON.parse(good().get('data/passport.json').toString('utf8'))
  passport.passport.how_to_use_this_file = 'read me first'
  passport.transcript = ['hello']
  const entries = assembleBag(passport, [])
  const file = join(work, 'd2.taskpack')
  writeFileSync(file, writeZip(entries))
  departure('D2 forbidden keys', file, () => assert.ok(refConformance(readZip(bytesOf(file))).ok), ['C0'], /`transcript` at ``.*`how_to_use_this_file` at `\/passport`/)
}
{
  // D3: a credential after the first 64 KiB of an attachment is packed, and conformance()
  // does not look at the luggage at all.
  const data = Buffer.concat([Buffer.alloc(70_000, 'a'), Buffer.from('\naws AKIAABCDEFGHIJKLMNOP\n')])
  const entries = buildBag({ state: state(), actor: 'ds', machine: 'mbp-14', files: [{ name: 'log.txt', data }] })
  const file = join(work, 'd3.taskpack')
  writeFileSync(file, writeZip(entries))
  departure('D3 credential past 64 KiB', file, () => assert.ok(refConformance(readZip(bytesOf(file))).ok), ['C7'], /`log.txt` carries a credential/)
}
{
  // D4: a chat transcript in the luggage is packed and passes.
  const data = Buffer.from('User: can you fix the build?\nAssistant: sure.\n')
  const entries = buildBag({ state: state(), actor: 'ds', machine: 'mbp-14', files: [{ name: 'chat.txt', data }] })
  const file = join(work, 'd4.taskpack')
  writeFileSync(file, writeZip(entries))
  departure('D4 transcript in luggage', file, () => assert.ok(refConformance(readZip(bytesOf(file))).ok), ['C8'], /`chat.txt` carries a chat transcript/)
}
{
  // D5: C9 fails for any attachment over 1 MiB (its flat writer refuses it).
  const entries = buildBag({ state: state(), actor: 'ds', machine: 'mbp-14', files: [{ name: 'big.bin', data: Buffer.alloc(1048577, 7) }] })
  const file = join(work, 'd5.taskpack')
  writeFileSync(file, writeZip(entries))
  test('departure D5 C9 and attachments over 1 MiB', () => {
    const report = refConformance(readZip(bytesOf(file)))
    assert.deepEqual(report.checks.filter((c) => !c.ok).map((c) => c.id), ['C9'])
    assert.match(report.checks.find((c) => c.id === 'C9').detail, /inline limit/)
    assertConformant(file)
  })
}
{
  // D6: C6 passes an unscoped fact marked verified, and a machine fact marked verified when it
  // also says needs_reverify (a hand-made zip: the reference's writer would have sealed them).
  const entries = rebag(good(), (p) => {
    p.passport.facts = [{ claim: 'port 8080 is free', verified: true }, { claim: 'the build passes', scope: 'machine', verified: true, needs_reverify: true }]
  })
  const file = join(work, 'd6.taskpack')
  writeFileSync(file, writeZip(entries))
  // Its C6 passes both; only its C9 notices, because its reader seals them on the way back.
  departure('D6 C6 and unscoped facts', file, () => {
    const report = refConformance(readZip(bytesOf(file)))
    assert.ok(report.checks.find((c) => c.id === 'C6').ok)
    assert.deepEqual(report.checks.filter((c) => !c.ok).map((c) => c.id), ['C9'])
  }, ['C6'], /facts\[0\].*no scope.*facts\[1\].*scope "machine"/)
}
{
  // D7: C4 takes any from_version that Number() makes finite (null, "3", true).
  const entries = rebag(good(), (p) => { p.lineage.from_version = null })
  const file = join(work, 'd7.taskpack')
  writeFileSync(file, writeZip(entries))
  departure('D7 C4 from_version', file, () => assert.ok(refConformance(readZip(bytesOf(file))).ok), ['C4'], /from_version is null/)
}
{
  // D8: C5 (and packing, through assembleBag) accepts a blank accept.
  const passport = JSON.parse(good().get('data/passport.json').toString('utf8'))
  passport.asks[0].accept = '   '
  const file = join(work, 'd8.taskpack')
  writeFileSync(file, writeZip(assembleBag(passport, [])))
  departure('D8 C5 blank accept', file, () => assert.ok(refConformance(readZip(bytesOf(file))).ok), ['C5'], /ask `a1` \(asks\[0\]\) has no accept/)
}
{
  // D9: §2.1's `Bag-Spec: taskpack/0.1` cannot round-trip through the reference: its C9 rebuilds
  // bag-info.txt from the pack object, whose spec is task-passport-bag/0.1. specmint reads both
  // values, writes the reference's (so its packs pass the reference's C9), and its own C9 agrees.
  const entries = good()
  const info = entries.get('bag-info.txt').toString('utf8').replace('Bag-Spec: task-passport-bag/0.1', 'Bag-Spec: taskpack/0.1')
  entries.set('bag-info.txt', Buffer.from(info))
  const tags = ['bagit.txt', 'bag-info.txt', 'manifest-sha256.txt'].map((p) => `${sha256(entries.get(p))}  ${p}`).join('\n') + '\n'
  entries.set('tagmanifest-sha256.txt', Buffer.from(tags))
  const file = join(work, 'd9.taskpack')
  writeFileSync(file, writeZip(entries))
  test('departure D9 Bag-Spec', () => {
    const report = refConformance(readZip(bytesOf(file)))
    assert.deepEqual(report.checks.filter((c) => !c.ok).map((c) => c.id), ['C9'])
    assertFailsOnly(file, ['C9'], /bag-info.txt is not the one its pack object/)
    const ours = readZip(convert(join(reference, 'handoff-minimal.taskpack.json'), join(work, 'd9-ours.taskpack')))
    assert.match(ours.get('bag-info.txt').toString('utf8'), /\nBag-Spec: task-passport-bag\/0.1\n$/)
  })
}

/* ---------- specmint packs from its passport store; task-passport reads and judges them ---------- */

{
  const store = join(work, 'store')
  const packs = join(work, 'packs')
  mkdirSync(packs, { recursive: true })
  const luggage = join(work, 'luggage')
  mkdirSync(join(luggage, '资料'), { recursive: true })
  writeFileSync(join(luggage, '资料', 'notes.md'), '# 简报\n\n客户要 PDF。\tTabs\r\nCRLF.\n')
  writeFileSync(join(luggage, '资料', 'logo.png'), binary)
  writeFileSync(join(luggage, 'empty.txt'), '')
  const big = Buffer.alloc(3 * 1048576)
  for (let i = 0; i < big.length; i += 1) big[i] = (i * 2654435761) >>> 24
  writeFileSync(join(luggage, 'dump.bin'), big)

  const newPassport = (id, extra) => {
    const file = join(work, `${id}.state.json`)
    const st = state(extra)
    delete st.id
    delete st.version
    writeFileSync(file, JSON.stringify(st))
    const out = run('passport', 'new', '--file', file, '--id', id, '--store', store, '--format', 'json')
    assert.equal(out.status, 0, out.stderr)
  }
  const pack = (id, file, ...extra) => {
    const out = run('taskpack', 'pack', id, '--out', join(packs, file), '--store', store,
      '--actor', 'ds', '--machine', 'mbp-14', '--format', 'json', ...extra)
    assert.equal(out.status, 0, `specmint taskpack pack ${id}: ${out.stdout}${out.stderr}`)
    return JSON.parse(out.stdout)
  }
  const passports = {
    'TP-PACK-0001': {},
    'TP-PACK-0002': { facts: Object.values(facts), decisions: [{ what: 'use the 2025 template', why: 'signed off' }] },
    'TP-PACK-0003': { facts: [facts.machine, facts.universal], lineage: { root_id: 'TP-UPST-1', chain: ['TP-UPST-1@4'] } },
    'TP-PACK-0004': {
      lineage: { root_id: 'TP-UPST-2', chain: ['TP-UPST-2@2'] },
      asks: [ask('a1', { status: 'answered', answer: 'calendar quarter', answered_by: '张老师@客户机', answered_at: '2026-08-16T13:10:20Z' })],
    },
  }
  for (const [id, extra] of Object.entries(passports)) newPassport(id, extra)
  const variants = {
    'minimal': ['TP-PACK-0001'],
    'asks-and-checks': ['TP-PACK-0001', '--ask', 'which quarter counts?|a date range with both ends|fiscal vs calendar',
      '--ask', 'which template?|the template name', '--check', 'this machine can render PDF|r --version'],
    'facts-sealed': ['TP-PACK-0002', '--note', '交接：图表做了一半'],
    'luggage': ['TP-PACK-0002', '--attach', join(luggage, '资料'), join(luggage, 'empty.txt')],
    'kept-lineage': ['TP-PACK-0003'],
    'receipt': ['TP-PACK-0004', '--kind', 'receipt', '--ask', 'fonts there?|yes or no'],
  }
  for (const [name, [id, ...extra]] of Object.entries(variants)) {
    for (const flat of [false, true]) {
      const file = `${name}.taskpack${flat ? '.json' : ''}`
      test(`specmint pack ${file}: task-passport reads it (verifyBag, strict fromFlat) and its conformance() passes it`, () => {
        const report = pack(id, file, ...extra, ...(flat ? ['--flat'] : []))
        assert.equal(report.encoding, flat ? 'flat' : 'bagit-zip')
        assertConformant(join(packs, file))
        assertReferenceAccepts(join(packs, file))
        // The reference's own sealing (travelFacts, idempotent) changes nothing: specmint sealed
        // the facts exactly as its writer would have.
        const entries = readPack(join(packs, file))
        const passport = JSON.parse(entries.get('data/passport.json').toString('utf8'))
        sameEntries(assembleBag(passport, [...entries].filter(([k]) => k.startsWith('data/files/')).map(([k, data]) => ({ name: k.slice(11), data }))), entries)
        for (const fact of passport.passport.facts) {
          if ((fact.scope || 'machine') === 'machine') {
            assert.deepEqual([fact.verified, fact.needs_reverify, fact.verified_on], [false, true, 'mbp-14'])
          }
        }
        assert.deepEqual(passport.lineage.chain.at(-1), `${id}@${report.state_version}`)
      })
    }
  }
  test('departure D10 lineage restarted at every hop', () => {
    // The reference's pack of a landed passport (one holding a kept lineage) starts a new chain.
    const landed = { ...state(), id: 'TP-PACK-0003', version: 1, lineage: { root_id: 'TP-UPST-1', chain: ['TP-UPST-1@4'] } }
    const theirs = JSON.parse(buildBag({ state: landed }).get('data/passport.json').toString('utf8')).lineage
    assert.deepEqual(theirs, { root_id: 'TP-PACK-0003', from_version: 1, chain: ['TP-PACK-0003@1'] })
    // specmint extends the kept one (§3.1).
    const ours = JSON.parse(readPack(join(packs, 'kept-lineage.taskpack')).get('data/passport.json').toString('utf8')).lineage
    assert.deepEqual(ours, { root_id: 'TP-UPST-1', from_version: 1, chain: ['TP-UPST-1@4', 'TP-PACK-0003@1'] })
  })
  test('specmint pack: a 3 MiB attachment in both encodings, the same bag either way', () => {
    pack('TP-PACK-0001', 'big.taskpack', '--attach', join(luggage, 'dump.bin'))
    pack('TP-PACK-0001', 'big.taskpack.json', '--flat', '--attach', join(luggage, 'dump.bin'))
    assertConformant(join(packs, 'big.taskpack'))
    assertConformant(join(packs, 'big.taskpack.json'))
    const zip = readZip(bytesOf(join(packs, 'big.taskpack')))
    assert.ok(verifyBag(zip).ok)
    assert.ok(Buffer.compare(zip.get('data/files/dump.bin'), big) === 0)
    const flat = fromFlat(readFileSync(join(packs, 'big.taskpack.json'), 'utf8'), { strict: true })
    assert.ok(Buffer.compare(flat.get('data/files/dump.bin'), big) === 0)
    // Its conformance() fails only C9 on an attachment over 1 MiB (departure D5).
    assert.deepEqual(refConformance(zip).checks.filter((c) => !c.ok).map((c) => c.id), ['C9'])
  })
  const { createDirectoryPassportProvider } = await import(join(lib, 'store.js'))
  const opened = await createDirectoryPassportProvider({ directory: store }).open('TP-PACK-0001').catch((e) => ({ state: { error: e.message } }))
  test('specmint pack: the home passport records the asks it sent, readable by task-passport\'s store', () => {
    assert.deepEqual(opened.state.asks?.map((a) => a.id), ['a1', 'a2'], JSON.stringify(opened.state))
    assert.ok(Number.isInteger(opened.state.version) && opened.state.version >= 2)
  })
  test('specmint pack refuses what task-passport packs: a transcript in the luggage', () => {
    writeFileSync(join(luggage, 'chat.txt'), 'User: can you fix the build?\nAssistant: sure.\n')
    const out = run('taskpack', 'pack', 'TP-PACK-0001', '--out', join(packs, 'chat.taskpack'), '--store', store,
      '--attach', join(luggage, 'chat.txt'))
    assert.equal(out.status, 1)
    assert.match(out.stdout, /^refused: chat_transcript: attachment `chat.txt`/)
    assert.throws(() => readFileSync(join(packs, 'chat.taskpack')), /ENOENT/)
    // The reference packs it (departure D4).
    buildBag({ state: state(), files: [{ name: 'chat.txt', data: readFileSync(join(luggage, 'chat.txt')) }] })
  })
}

finish('taskpack interop with task-passport 0.3.1')
