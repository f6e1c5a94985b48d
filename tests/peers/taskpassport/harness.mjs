// What the TaskPack interop scripts share: their command line, a test runner that records
// instead of stopping at the first failure, and the report that sets the exit status.

import { mkdirSync, rmSync } from 'node:fs'

/** The value after `--name` on the command line (required). */
export function arg(name) {
  const at = process.argv.indexOf(name)
  if (at < 0 || !process.argv[at + 1]) throw new Error(`${name} is required`)
  return process.argv[at + 1]
}

/** `--specmint` and a fresh `--work` directory. */
export function setup() {
  const work = arg('--work')
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  return { specmint: arg('--specmint'), work }
}

const results = []

/** Runs one test (sync or async), recording its outcome. */
export async function test(name, body) {
  try {
    await body()
    results.push({ name, ok: true })
  } catch (error) {
    results.push({ name, ok: false, detail: error.message.split('\n').slice(0, 8).join(' | ') })
  }
}

/** Prints every outcome and a summary line, and exits 1 when any test failed. */
export function finish(title) {
  const failed = results.filter((r) => !r.ok)
  for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}${r.ok ? '' : `\n     ${r.detail}`}`)
  console.log(`\n${title}: ${results.length - failed.length}/${results.length} passed`)
  process.exit(failed.length ? 1 : 0)
}
