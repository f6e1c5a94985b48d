// The playground in a real browser: headless Chromium (Debian's, SPECMINT_CHROMIUM) driven by
// puppeteer-core loads the page `node playground/serve.mjs` serves, types a spec mistake and
// sees its diagnostic at the right line, fixes it, pastes a document and sees each of its
// errors as `specmint validate --spec` ($SPECMINT_BIN) gives them, opens a share link, and
// saves screenshots (SPECMINT_WASM_SCREENSHOT, and beside it `-diagnostic.png`: the mistake
// shown). SPECMINT_WASM names the module.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const work = mkdtempSync(join(tmpdir(), 'specmint-playground-'));
const screenshot = process.env.SPECMINT_WASM_SCREENSHOT || join(work, 'playground.png');
const md = readFileSync(join(here, 'spec/signup_form.md'), 'utf8');
const toml = readFileSync(join(here, 'spec/signup_form.toml'), 'utf8');

// The one documented command, on a free port, writing the site to a scratch folder.
const server = spawn(process.execPath, [join(root, 'playground/serve.mjs'), '--port', '0', '--out', join(work, 'site'), '--wasm', process.env.SPECMINT_WASM], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((ok, fail) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (m) ok(m[0]);
  });
  server.on('exit', (code) => fail(new Error(`serve.mjs exited ${code}`)));
});
const browser = await puppeteer.launch({
  executablePath: process.env.SPECMINT_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
test.after(async () => {
  await browser.close();
  server.kill();
  rmSync(work, { recursive: true, force: true });
});

const pageErrors = [];
async function open(address = url) {
  const page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.setViewport({ width: 1600, height: 1100 });
  await page.goto(address);
  await page.waitForFunction(() => window.playground !== undefined, { timeout: 30000 });
  return page;
}

const updates = (page) => page.evaluate(() => Number(document.body.dataset.updates));
// Waits for the update after `n` (the page checks 120 ms after the last keystroke).
const updatedAfter = (page, n) => page.waitForFunction((n) => Number(document.body.dataset.updates) > n, { timeout: 10000 }, n);

// Replaces a textarea's text as a paste does (an `input` event from the editing command).
async function paste(page, selector, text) {
  const n = await updates(page);
  await page.evaluate((selector, text) => {
    const area = document.querySelector(selector);
    area.focus();
    area.select();
    document.execCommand('insertText', false, text);
  }, selector, text);
  await updatedAfter(page, n);
}

const diagnostics = (page) => page.$$eval('#diagnostics li', (lis) => lis.map((li) => ({ ...li.dataset, text: li.textContent })));
const markedLines = (page, side) => page.$$eval(`.editor[data-file="${side}"] .gutter .bad`, (s) => s.map((x) => Number(x.dataset.line)));

/** `specmint validate --spec spec signup-form` on `text`, less type and file. */
function cliVerdict(text) {
  const project = join(work, 'project');
  spawnSync('mkdir', ['-p', join(project, 'spec')]);
  writeFileSync(join(project, 'spec/signup_form.md'), md);
  writeFileSync(join(project, 'spec/signup_form.toml'), toml);
  writeFileSync(join(project, 'doc.json'), text);
  const r = spawnSync(process.env.SPECMINT_BIN, ['validate', '--spec', 'spec', 'signup-form', 'doc.json', '--format', 'json'], { cwd: project, encoding: 'utf8' });
  const { type: _t, file: _f, ...verdict } = JSON.parse(r.stdout);
  return verdict;
}

test('the page loads the module and the four bundled specs, each example checking and valid', async () => {
  const page = await open();
  const names = await page.$$eval('#example option', (o) => o.map((x) => x.value));
  assert.deepEqual(names, ['action_envelope', 'task_envelope', 'task_packet', 'taskpack']);
  for (const name of names) {
    const n = await updates(page);
    await page.select('#example', name);
    await updatedAfter(page, n);
    const state = await page.evaluate(() => window.playground.state());
    assert.deepEqual(state.diagnostics, [], name);
    assert.equal(state.verdict.valid, true, `${name}: ${JSON.stringify(state.verdict)}`);
    assert.match(await page.$eval('#schema', (e) => e.textContent), /"\$schema"/);
  }
  await page.click('.tabs button[data-tab="rust"]');
  assert.match(await page.$eval('#rust', (e) => e.textContent), /pub struct/);
  await page.close();
});

test('a spec mistake typed shows its diagnostic at its line; fixed, it goes; a pasted document shows each error', async () => {
  const page = await open();
  await page.$eval('#spec-name', (e) => { e.value = ''; });
  await page.type('#spec-name', 'signup_form');
  await paste(page, '#spec-toml', toml);
  await paste(page, '#spec-md', md);
  assert.deepEqual(await diagnostics(page), []);
  assert.deepEqual(await page.evaluate(() => window.playground.state().types), ['signup-form']);

  // The mistake: the type of `plan` misspelt, typed with the keyboard after `| plan`.
  const row = md.split('\n').findIndex((l) => l.startsWith('| `plan` | plan |'));
  const offset = md.split('\n').slice(0, row).join('\n').length + 1 + '| `plan` | plan'.length;
  await page.evaluate((offset) => {
    const area = document.querySelector('#spec-md');
    area.focus();
    area.setSelectionRange(offset, offset);
  }, offset);
  let n = await updates(page);
  await page.keyboard.type('n');
  await updatedAfter(page, n);
  const shown = await diagnostics(page);
  assert.equal(shown.length, 1, JSON.stringify(shown));
  assert.equal(shown[0].file, 'spec/signup_form.md');
  assert.equal(Number(shown[0].line), row + 1);
  assert.equal(Number(shown[0].column), '| `plan` | '.length + 1);
  assert.match(shown[0].text, /^spec\/signup_form\.md:\d+:\d+ .*plann/);
  assert.deepEqual(await markedLines(page, 'md'), [row + 1]);
  assert.match(await page.$eval('#verdict', (e) => e.textContent), /does not check/);
  await page.screenshot({ path: screenshot.replace(/\.png$/, '-diagnostic.png') });

  n = await updates(page);
  await page.keyboard.press('Backspace');
  await updatedAfter(page, n);
  assert.deepEqual(await diagnostics(page), []);
  assert.deepEqual(await markedLines(page, 'md'), []);

  const doc = JSON.stringify({ username: '9lives', email: 'nope', display_name: ' ', age: 7, interests: ['go', 'go'], address: { line1: '', country: 'fr' }, plan: 'team' }, null, 2);
  await paste(page, '#doc', doc);
  const expected = cliVerdict(doc);
  assert.equal(expected.valid, false);
  assert.ok(expected.errors.length >= 6, JSON.stringify(expected));
  const errors = await page.$$eval('#errors li', (lis) => lis.map((li) => ({ ...li.dataset, text: li.textContent })));
  assert.equal(errors.length, expected.errors.length);
  expected.errors.forEach((e, i) => {
    assert.equal(errors[i].code, e.code);
    assert.equal(errors[i].path, e.path);
    assert.equal(Number(errors[i].line), e.line);
    assert.equal(Number(errors[i].column), e.column);
    assert.ok(errors[i].text.includes(e.message), errors[i].text);
  });
  assert.deepEqual(await page.evaluate(() => window.playground.state().verdict), expected);
  assert.deepEqual(JSON.parse(await page.$eval('#verdict-json', (e) => e.textContent)), expected);
  assert.deepEqual(await markedLines(page, 'doc'), [...new Set(expected.errors.map((e) => e.line))].sort((a, b) => a - b));
  assert.match(await page.$eval('#verdict', (e) => e.textContent), new RegExp(`invalid signup-form \\(${expected.errors.length} errors\\)`));

  await page.screenshot({ path: screenshot, fullPage: true });

  // The share link carries the texts: opened afresh, the page shows the same spec and verdict.
  await page.click('#share');
  await page.waitForFunction(() => document.querySelector('#share-link').value.includes('#s='));
  const link = await page.$eval('#share-link', (e) => e.value);
  const shared = await open(link);
  assert.equal(await shared.$eval('#spec-md', (e) => e.value), md);
  assert.equal(await shared.$eval('#spec-name', (e) => e.value), 'signup_form');
  assert.deepEqual(await shared.evaluate(() => window.playground.state().verdict), expected);
  await shared.close();
  await page.close();
  assert.deepEqual(pageErrors, []);
});
