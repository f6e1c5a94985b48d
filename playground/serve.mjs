// The playground (issue 52): assembles the static site and serves it on localhost.
//
//   node playground/serve.mjs [--port 8052] [--out DIR] [--no-serve] [--wasm FILE]
//
// The site is static files only, written to DIR (default $CARGO_TARGET_DIR/playground, or
// target/playground): the page (index.html, app.mjs, style.css of this folder), the module's
// glue (bindings/wasm/specmint.mjs), the module scripts/wasm.sh built, and examples.json (the
// four bundled specs' Markdown and sidecar, each with its first valid example as the starting
// document). The module is FILE, by default the one scripts/wasm.sh builds (run first, so the
// page has the module of the checkout as it is). Any static file server can serve DIR; this one is node's http module, answering
// GET for the files of DIR and nothing else. --no-serve writes DIR and exits.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const targetDir = resolve(root, process.env.CARGO_TARGET_DIR || 'target');
const out = resolve(option('--out', join(targetDir, 'playground')));
const port = Number(option('--port', 8052));
const wasm = resolve(option('--wasm', join(targetDir, 'wasm32-unknown-unknown/wasm/specmint_wasm.wasm')));

// The module scripts/wasm.sh builds (or finds up to date: about a second), unless --wasm names one.
if (option('--wasm', null) === null) {
  spawnSync(join(root, 'scripts/wasm.sh'), { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CARGO_TARGET_DIR: targetDir } });
}
if (!existsSync(wasm)) {
  console.error(`serve.mjs: no module at ${wasm} (scripts/wasm.sh builds it; see above why it did not)`);
  process.exit(1);
}

/** The four bundled specs with a starting document each: the corpus's base case. */
function examples() {
  const specDir = join(root, 'spec');
  // A spec is a `.md` with its `.toml` sidecar; `<stem>.<tag>.md` beside it is a locale file.
  return readdirSync(specDir)
    .filter((f) => f.endsWith('.md') && existsSync(join(specDir, `${f.slice(0, -3)}.toml`)))
    .sort()
    .map((file) => {
      const name = file.slice(0, -3);
      const corpus = JSON.parse(readFileSync(join(root, 'generated/corpus', name, 'cases.json'), 'utf8'));
      const base = corpus.cases.find((c) => c.valid) ?? corpus.cases[0];
      return {
        name,
        md: readFileSync(join(specDir, file), 'utf8'),
        toml: readFileSync(join(specDir, `${name}.toml`), 'utf8'),
        document: `${JSON.stringify(base.document, null, 2)}\n`,
      };
    });
}

mkdirSync(out, { recursive: true });
for (const file of ['index.html', 'app.mjs', 'style.css']) {
  copyFileSync(join(here, file), join(out, file));
}
copyFileSync(join(root, 'bindings/wasm/specmint.mjs'), join(out, 'specmint.mjs'));
copyFileSync(wasm, join(out, 'specmint_wasm.wasm'));
writeFileSync(join(out, 'examples.json'), JSON.stringify(examples()));

if (process.argv.includes('--no-serve')) {
  console.log(out);
  process.exit(0);
}

const types = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

const compressed = new Map();
function gzipped(file, body) {
  if (!compressed.has(file)) compressed.set(file, gzipSync(body, { level: 9 }));
  return compressed.get(file);
}

const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  const file = resolve(out, `.${path === '/' ? '/index.html' : path}`);
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !file.startsWith(out + sep) || !existsSync(file)) {
    res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 404 : 405).end();
    return;
  }
  const headers = { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' };
  let body = readFileSync(file);
  // Compressed as a web server would send it (the module is about a third of its size so).
  if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    body = gzipped(file, body);
    headers['content-encoding'] = 'gzip';
  }
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
});
server.listen(port, '127.0.0.1', () => {
  console.log(`specmint playground: http://127.0.0.1:${server.address().port}/ (serving ${out})`);
});
