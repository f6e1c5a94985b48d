// Packs written by task-passport's own library (tests/peers/taskpassport/, pinned), for two
// checks: TaskPack reading stays open (issue 22 item 3: facts whose words are not under
// `claim`, decisions as plain strings), judged by task-passport's conformance() and by
// specmint's `validate taskpack` and `conformance`; and a pack for the A2A client
// (tests/peers/a2a/client.py) to send through `specmint a2a serve`.
//
//   node tests/peers/a2a/taskpassport_packs.mjs --specmint BIN --work DIR
// Writes DIR/*.taskpack and DIR/*.taskpack.json; exit 1 when any check fails.

import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { finish, setup, test } from '../taskpassport/harness.mjs'

const here = fileURLToPath(new URL('.', import.meta.url))
const lib = join(here, '..', 'taskpassport', 'node_modules', 'task-passport')
const { buildBag, readZip, writeZip } = await import(join(lib, 'bag.js'))
const { conformance, toFlat, fromFlat } = await import(join(lib, 'taskpack.js'))

const { specmint, work } = setup()
const run = (...args) => spawnSync(specmint, args, { encoding: 'utf8', maxBuffer: 1 << 26 })

const state = (id, extra) => ({
  spec: '2origin/0.1', kind: 'task.origin', id, title: `open reading ${id}`,
  goal: 'Ship the Q3 customer report as PDF', version: 2, machine_id: 'mbp-14', harness: 'claude-code',
  current_state: 'charts half done', facts: [], decisions: [], actions: [], artifacts: [],
  next_steps: ['finish the charts'], learnings: [], ...extra,
})

const packs = {
  // The words under `text`, `statement`, or none at all; scopes as §4.2 has them.
  'facts-without-claim': buildBag({
    state: state('TP-OPEN-0001', {
      facts: [
        { text: 'the customer wants PDF, not slides', scope: 'universal', verified: true },
        { statement: 'the renderer is at /opt/r', scope: 'machine', verified: true },
        { scope: 'org', verified: true, source: 'ds' },
      ],
    }),
    actor: 'ds', machine: 'mbp-14',
  }),
  // Decisions as plain strings, and mixed with the object the reference writes.
  'string-decisions': buildBag({
    state: state('TP-OPEN-0002', {
      decisions: ['use the 2025 template', { what: 'ship on Friday', why: 'the customer asked' }, { decision: 'no slides' }],
    }),
    actor: 'ds', machine: 'mbp-14',
  }),
  // What the A2A client sends: luggage, an ask, a landing check, a claimless fact.
  'for-a2a': buildBag({
    state: state('TP-A2A0-0001', {
      facts: [{ text: 'port 8080 is free', verified: true }],
      decisions: ['PDF only'],
      artifacts: ['data/files/brief.md', 'git@example.invalid:reports.git#3f2a9c1'],
    }),
    actor: 'ds', machine: 'mbp-14', note: 'charts half done',
    asks: [{ id: 'a1', to: 'peer', what: 'which quarter counts as Q3?', accept: 'a date range' }],
    landingChecks: [{ id: 'c1', check: 'this machine can render PDF', how: 'r --version' }],
    files: [{ name: 'brief.md', data: Buffer.from('# 简报\n\n客户要 PDF。\n', 'utf8') }],
  }),
}

for (const [name, entries] of Object.entries(packs)) {
  const zip = join(work, `${name}.taskpack`)
  const flat = join(work, `${name}.taskpack.json`)
  writeFileSync(zip, writeZip(entries))
  writeFileSync(flat, toFlat(entries))

  await test(`${name}: task-passport's conformance() passes both encodings`, () => {
    for (const read of [readZip(writeZip(entries)), fromFlat(toFlat(entries), { strict: true })]) {
      const report = conformance(read)
      assert.ok(report.ok, report.checks.filter((c) => !c.ok).map((c) => `${c.id} ${c.detail}`).join('; '))
    }
  })
  await test(`${name}: specmint validate taskpack reads the flat form`, () => {
    const out = run('validate', 'taskpack', flat, '--format', 'json')
    assert.equal(out.status, 0, out.stdout + out.stderr)
    assert.deepEqual(JSON.parse(out.stdout).errors, [])
  })
  await test(`${name}: specmint conformance passes both encodings`, () => {
    for (const file of [zip, flat]) {
      const out = run('taskpack', 'conformance', file, '--format', 'json')
      const verdict = JSON.parse(out.stdout)
      assert.equal(out.status, 0, `${file}: ${verdict.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id} ${c.reason}`).join('; ')}`)
    }
  })
}

finish('task-passport packs (open reading, A2A)')
