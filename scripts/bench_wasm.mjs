// The WebAssembly module (issue 52): its size, its load time, and documents/s against the Node
// binding and ajv, under Node and in headless Chromium.
//   * size: the module's bytes, raw and gzipped (level 9, what a web server sends);
//   * load: WebAssembly.compile + instantiate under Node (median of 21), and in the page: the
//     playground's own measure (fetch + instantiate, `document.body.dataset.loadMs`) and the time
//     from navigation to the page ready, over localhost;
//   * documents/s: every case of each bundled spec's corpus, compact UTF-8 JSON (as
//     scripts/bench_bindings.mjs writes them, through Python's json.dumps), judged in a loop, all
//     of them, the valid ones apart and the invalid ones apart, by the module (`.valid`, as the
//     Node binding's bench counts it), the Node binding (with --node-binding DIR: a folder
//     holding its index.js, platform.js and a built specmint.node; skipped without one), and ajv
//     (2020-12, ajv-formats, the conformance check's options; JSON.parse + the compiled
//     validator, first error). In Chromium, ajv is bundled for the page by esbuild (pinned in
//     tests/peers/wasm) and both judge the same strings.
// Each round times every judge once, in turn; the rate is the median of --rounds rounds.
//
//   scripts/wasm.sh && ./tests/peers/npm-ci.sh tests/peers/wasm
//   cargo build --release -p specmint-node && D=$(mktemp -d) && cp bindings/node/{index.js,platform.js} $D/ \
//     && cp $CARGO_TARGET_DIR/release/libspecmint_node.so $D/specmint.node
//   node scripts/bench_wasm.mjs [--rounds 11] [--min-docs 2000] [--node-binding $D] [--no-browser]
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const peers = join(root, 'tests/peers/wasm');
const require = createRequire(join(peers, 'package.json'));
const Ajv2020 = require('ajv/dist/2020.js').default;
const addFormats = require('ajv-formats').default;
const AJV_VERSION = require('ajv/package.json').version;
const { init } = await import(join(root, 'bindings/wasm/specmint.mjs'));

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
}
const rounds = Number(option('--rounds', 11));
const minDocs = Number(option('--min-docs', 2000));
const bindingDir = option('--node-binding', null);
const targetDir = resolve(root, process.env.CARGO_TARGET_DIR || 'target');
const wasmPath = resolve(option('--wasm', join(targetDir, 'wasm32-unknown-unknown/wasm/specmint_wasm.wasm')));
const binding = bindingDir === null ? null : createRequire(import.meta.url)(resolve(bindingDir));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

// Every judge's median documents/s over `documents`, the judges timed in turn each round.
// (The same function runs in the page: it is sent there as text.)
function rates(judges, documents, rounds, minDocs) {
  const reps = Math.max(1, Math.ceil(minDocs / documents.length));
  const seconds = judges.map(() => []);
  for (let r = 0; r < rounds; r++) {
    judges.forEach(([, judge], k) => {
      const start = performance.now();
      for (let i = 0; i < reps; i++) for (const d of documents) judge(d);
      seconds[k].push((performance.now() - start) / 1e3);
    });
  }
  return seconds.map((s) => {
    const sorted = [...s].sort((a, b) => a - b);
    return (documents.length * reps) / sorted[sorted.length >> 1];
  });
}

// Each bundled corpus: its TYPE, schema and cases, the documents as compact JSON text.
function corpora() {
  const corpusDir = join(root, 'generated/corpus');
  const dump = "import json,sys\nfor c in json.load(open(sys.argv[1],encoding='utf-8'))['cases']:\n" +
    " print(json.dumps(json.dumps(c['document'],ensure_ascii=False,separators=(',',':'))))";
  return readdirSync(corpusDir).sort().map((dir) => {
    const corpus = JSON.parse(readFileSync(join(corpusDir, dir, 'cases.json'), 'utf8'));
    const lines = execFileSync('python3', ['-c', dump, join(corpusDir, dir, 'cases.json')], { encoding: 'utf8', maxBuffer: 1 << 28 });
    return {
      spec: corpus.spec,
      type: corpus.spec.replaceAll('_', '-'),
      schema: JSON.parse(readFileSync(join(root, 'generated', corpus.schema), 'utf8')),
      valid: corpus.cases.map((c) => c.valid),
      texts: lines.trim().split('\n').map((l) => JSON.parse(l)),
    };
  });
}

const subsetsOf = (c) => [
  ['all', c.valid.map((_, i) => i)],
  ['valid', c.valid.flatMap((v, i) => (v ? [i] : []))],
  ['invalid', c.valid.flatMap((v, i) => (v ? [] : [i]))],
];

const bytes = readFileSync(wasmPath);
console.log(`Node ${process.version}; ${rounds} rounds, median; at least ${minDocs} documents per timing; load average at start ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
console.log();
console.log(`module: ${wasmPath}: ${bytes.length.toLocaleString('en')} bytes, ${gzipSync(bytes, { level: 9 }).length.toLocaleString('en')} gzipped (level 9)`);
const loads = [];
for (let i = 0; i < 21; i++) {
  const start = performance.now();
  await init(await WebAssembly.compile(bytes));
  loads.push(performance.now() - start);
}
console.log(`Node: compile + instantiate: ${median(loads).toFixed(1)} ms (median of 21)`);
const wasm = await init(bytes);

const all = corpora();
console.log();
console.log('Under Node:');
console.log();
console.log('| spec | documents | judge | documents/s | × ajv | × Node binding |');
console.log('|---|---|---|---:|---:|---:|');
for (const c of all) {
  const documents = c.texts.map((t) => Buffer.from(t));
  const ajv = addFormats(new Ajv2020({ unicodeRegExp: true, strict: false })).compile(c.schema);
  const judges = [
    ['wasm', (d) => wasm.validate(c.type, d).valid],
    ...(binding === null ? [] : [['Node binding', (d) => binding.validate(c.type, d).valid]]),
    [`ajv ${AJV_VERSION}`, (d) => ajv(JSON.parse(d))],
  ];
  for (const [subset, indexes] of subsetsOf(c)) {
    const wrong = indexes.filter((i) => wasm.validate(c.type, documents[i]).valid !== c.valid[i]).length;
    if (wrong) throw new Error(`${c.spec}: the module gets ${wrong} verdicts wrong`);
    const rate = rates(judges, indexes.map((i) => documents[i]), rounds, minDocs);
    const ajvRate = rate[rate.length - 1];
    const nodeRate = binding === null ? null : rate[1];
    judges.forEach(([name], k) => {
      const ofNode = nodeRate === null || name === 'Node binding' ? '—' : `${(rate[k] / nodeRate).toFixed(2)}×`;
      console.log(`| ${c.spec} | ${subset} (${indexes.length}) | ${name} | ${Math.round(rate[k]).toLocaleString('en')} | ${name.startsWith('ajv') ? '—' : `${(rate[k] / ajvRate).toFixed(2)}×`} | ${ofNode} |`);
    });
  }
}

if (process.argv.includes('--no-browser')) process.exit(0);
const chromium = process.env.SPECMINT_CHROMIUM || '/usr/bin/chromium';
if (!existsSync(chromium) || !existsSync(join(peers, 'node_modules/puppeteer-core'))) {
  console.log(`\nIn Chromium: SKIPPED: no ${chromium} or no puppeteer-core (./tests/peers/npm-ci.sh tests/peers/wasm)`);
  process.exit(0);
}

// The site, with ajv bundled for the page and a bench page beside the playground.
const work = mkdtempSync(join(tmpdir(), 'specmint-bench-wasm-'));
const site = join(work, 'site');
execFileSync(process.execPath, [join(root, 'playground/serve.mjs'), '--no-serve', '--out', site, '--wasm', wasmPath]);
writeFileSync(join(work, 'ajv-entry.mjs'), "export { default as Ajv2020 } from 'ajv/dist/2020.js';\nexport { default as addFormats } from 'ajv-formats';\n");
execFileSync(join(peers, 'node_modules/.bin/esbuild'), [join(work, 'ajv-entry.mjs'), '--bundle', '--format=esm', '--platform=browser', '--minify', '--log-level=warning', `--outfile=${join(site, 'ajv.mjs')}`], { cwd: peers, env: { ...process.env, NODE_PATH: join(peers, 'node_modules') } });
writeFileSync(join(site, 'bench.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
import { init } from './specmint.mjs';
import { Ajv2020, addFormats } from './ajv.mjs';
window.specmint = await init(fetch('specmint_wasm.wasm'));
window.Ajv2020 = Ajv2020; window.addFormats = addFormats;
window.ready = true;
</script>`);
writeFileSync(join(site, 'corpora.json'), JSON.stringify(all));
const server = spawn(process.execPath, [join(root, 'playground/serve.mjs'), '--port', '0', '--out', site, '--wasm', wasmPath], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((ok) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (m) ok(m[0]);
  });
});
const puppeteer = (await import(require.resolve('puppeteer-core'))).default;
const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
try {
  const page = await browser.newPage();
  const pageLoads = [];
  const ready = [];
  for (let i = 0; i < 7; i++) {
    const start = performance.now();
    await page.goto(url);
    await page.waitForFunction(() => window.playground !== undefined);
    ready.push(performance.now() - start);
    pageLoads.push(Number(await page.evaluate(() => document.body.dataset.loadMs)));
  }
  const version = await browser.version();
  console.log();
  console.log(`In ${version} (headless), over localhost, gzip: the module fetched and instantiated in ${median(pageLoads).toFixed(0)} ms; navigation to the playground ready (a bundled spec loaded, checked and a document judged) ${median(ready).toFixed(0)} ms (medians of 7)`);
  await page.goto(`${url}bench.html`);
  await page.waitForFunction(() => window.ready === true);
  console.log();
  console.log('| spec | documents | judge | documents/s | × ajv |');
  console.log('|---|---|---|---:|---:|');
  for (const c of all) {
    for (const [subset, indexes] of subsetsOf(c)) {
      const rate = await page.evaluate(async (spec, indexes, rates, rounds, minDocs) => {
        window.corpora ??= await (await fetch('corpora.json')).json();
        const c = window.corpora.find((x) => x.spec === spec);
        const ajv = window.addFormats(new window.Ajv2020({ unicodeRegExp: true, strict: false })).compile(c.schema);
        const judges = [
          ['wasm', (d) => window.specmint.validate(c.type, d).valid],
          ['ajv', (d) => ajv(JSON.parse(d))],
        ];
        // eslint-disable-next-line no-new-func
        return new Function(`return ${rates}`)()(judges, indexes.map((i) => c.texts[i]), rounds, minDocs);
      }, c.spec, indexes, rates.toString(), rounds, minDocs);
      console.log(`| ${c.spec} | ${subset} (${indexes.length}) | wasm | ${Math.round(rate[0]).toLocaleString('en')} | ${(rate[0] / rate[1]).toFixed(2)}× |`);
      console.log(`| ${c.spec} | ${subset} (${indexes.length}) | ajv ${AJV_VERSION} | ${Math.round(rate[1]).toLocaleString('en')} | — |`);
    }
  }
} finally {
  await browser.close();
  server.kill();
  rmSync(work, { recursive: true, force: true });
}
