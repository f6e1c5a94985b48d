// The playground's page: a spec (Markdown and sidecar) and a document, checked as you type by
// the WebAssembly module (specmint.mjs, specmint_wasm.wasm), which gives the verdicts of
// `specmint validate --spec`. No server logic: serve.mjs only serves these files.
//
// For scripts (tests/peers/wasm/browser.test.mjs, a checker): `window.playground` has
// `ready` (a promise), `setSpec({name, md, toml})`, `setDocument(text)`, `setType(TYPE)` and
// `state()` ({diagnostics, types, type, verdict}: the CLI's JSON verdict, or null when the spec
// does not check); `document.body.dataset.updates` counts the updates done.
import { init } from './specmint.mjs';

const $ = (id) => document.getElementById(id);
const ui = {
  example: $('example'), share: $('share'), shareLink: $('share-link'), status: $('status'),
  name: $('spec-name'), md: $('spec-md'), toml: $('spec-toml'), doc: $('doc'), type: $('type'),
  diagnostics: $('diagnostics'), diagnosticsCount: $('diagnostics-count'), verdict: $('verdict'),
  errors: $('errors'), verdictJson: $('verdict-json'), schema: $('schema'), rust: $('rust'),
};

const started = performance.now();
const specmint = await init(fetch('specmint_wasm.wasm'));
const loadMs = performance.now() - started;
const examples = await (await fetch('examples.json')).json();

let spec = null; // the loaded Spec, or null when it does not check
let loadedKey = null; // the texts `spec` was loaded from
let current = { diagnostics: [], types: [], type: null, verdict: null };
let tab = 'schema';
let updates = 0;

// Line numbers beside a textarea, the lines in `bad` marked.
function gutter(textarea, bad = new Map()) {
  const pre = textarea.parentElement.querySelector('.gutter');
  const lines = textarea.value.split('\n').length;
  const spans = [];
  for (let i = 1; i <= lines; i++) {
    const why = bad.get(i);
    spans.push(why === undefined ? `<span>${i}</span>` : `<span class="bad" data-line="${i}" title="${escape(why)}">${i}</span>`);
  }
  pre.innerHTML = spans.join('');
  pre.scrollTop = textarea.scrollTop;
}

function escape(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

// Moves the caret of `textarea` to `line`:`column` (1-based, columns in chars).
function reveal(textarea, line, column) {
  const lines = textarea.value.split('\n');
  let offset = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) offset += lines[i].length + 1;
  offset += Math.max(0, column - 1);
  textarea.focus();
  textarea.setSelectionRange(offset, offset);
  textarea.scrollTop = Math.max(0, (line - 5) * 16);
}

function problem(li, where, message, hint, target, line, column) {
  li.innerHTML = `<span class="where">${escape(where)}</span> ${escape(message)}${hint ? `\n<span class="hint">hint: ${escape(hint)}</span>` : ''}`;
  if (line > 0) li.addEventListener('click', () => reveal(target, line, column));
  return li;
}

function renderDiagnostics(diagnostics) {
  ui.diagnostics.replaceChildren(...diagnostics.map((d) => {
    const li = document.createElement('li');
    const side = d.file.endsWith('.toml') ? 'toml' : 'md';
    Object.assign(li.dataset, { file: d.file, side, line: d.line, column: d.column });
    const where = d.line > 0 ? `${d.file}:${d.line}:${d.column}` : d.file;
    return problem(li, where, d.message, d.hint, side === 'toml' ? ui.toml : ui.md, d.line, d.column);
  }));
  ui.diagnosticsCount.textContent = diagnostics.length ? `(${diagnostics.length})` : '(none: the spec checks)';
  for (const [side, textarea] of [['md', ui.md], ['toml', ui.toml]]) {
    const bad = new Map();
    for (const d of diagnostics) {
      if ((d.file.endsWith('.toml') ? 'toml' : 'md') === side && d.line > 0) bad.set(d.line, d.message);
    }
    gutter(textarea, bad);
  }
}

function renderVerdict(verdict) {
  const bad = new Map();
  if (verdict === null) {
    ui.verdict.textContent = 'not judged: the spec does not check (see its diagnostics)';
    ui.verdict.className = '';
    ui.errors.replaceChildren();
    ui.verdictJson.textContent = '';
  } else {
    ui.verdict.textContent = verdict.valid ? `valid ${current.type}` : `invalid ${current.type} (${verdict.errors.length} error${verdict.errors.length === 1 ? '' : 's'})`;
    ui.verdict.className = verdict.valid ? 'valid' : 'invalid';
    ui.errors.replaceChildren(...verdict.errors.map((e) => {
      const li = document.createElement('li');
      Object.assign(li.dataset, { code: e.code, path: e.path, pointer: e.pointer, line: e.line ?? '', column: e.column ?? '' });
      if (e.line !== undefined && !bad.has(e.line)) bad.set(e.line, e.message);
      const at = e.line === undefined ? '' : `${e.line}:${e.column} `;
      return problem(li, `${at}error[${e.code}] ${e.path || '(document)'}`, e.message, '', ui.doc, e.line ?? 0, e.column ?? 0);
    }));
    ui.verdictJson.textContent = JSON.stringify(verdict, null, 2);
  }
  gutter(ui.doc, bad);
}

function renderOutputs() {
  if (spec === null || current.type === null) {
    ui.schema.textContent = ui.rust.textContent = '(the spec does not check)';
    return;
  }
  if (tab === 'schema') ui.schema.textContent = spec.schemaText(current.type);
  else ui.rust.textContent = spec.rust(current.type);
}

function update() {
  const name = ui.name.value.trim();
  for (const stem of document.querySelectorAll('.stem')) stem.textContent = name;
  const key = JSON.stringify([name, ui.md.value, ui.toml.value]);
  if (key !== loadedKey) {
    loadedKey = key;
    spec?.free();
    spec = null;
    try {
      spec = specmint.Spec.fromText({ [`${name}.md`]: ui.md.value, [`${name}.toml`]: ui.toml.value });
      current.diagnostics = [];
    } catch (e) {
      if (!(e instanceof specmint.SpecError)) throw e;
      current.diagnostics = e.diagnostics;
    }
    renderDiagnostics(current.diagnostics);
    current.types = spec ? spec.types : [];
    const wanted = current.types.includes(ui.type.value) ? ui.type.value : current.types[0] ?? null;
    ui.type.replaceChildren(...current.types.map((t) => new Option(t, t, false, t === wanted)));
    current.type = wanted;
    renderOutputs();
  }
  current.verdict = spec && current.type ? spec.validate(current.type, ui.doc.value).toJSON() : null;
  renderVerdict(current.verdict);
  document.body.dataset.updates = String(++updates);
}

let timer = null;
function later() {
  clearTimeout(timer);
  timer = setTimeout(update, 120);
}

function load({ name, md, toml, document: doc, type }) {
  ui.name.value = name;
  ui.md.value = md;
  ui.toml.value = toml;
  ui.doc.value = doc ?? '';
  if (type) ui.type.replaceChildren(new Option(type, type, false, true));
  update();
}

// The share link: the texts, deflated, base64url, in the fragment (never sent to a server).
async function pack(payload) {
  const stream = new Blob([JSON.stringify(payload)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function unpack(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return JSON.parse(await new Response(stream).text());
}

ui.example.replaceChildren(...examples.map((e) => new Option(e.name, e.name)));
ui.example.addEventListener('change', () => load(examples.find((e) => e.name === ui.example.value)));
for (const textarea of [ui.md, ui.toml, ui.doc]) {
  textarea.addEventListener('input', later);
  textarea.addEventListener('scroll', () => { textarea.parentElement.querySelector('.gutter').scrollTop = textarea.scrollTop; });
}
ui.name.addEventListener('input', later);
ui.type.addEventListener('change', () => {
  current.type = ui.type.value;
  renderOutputs();
  update();
});
for (const button of document.querySelectorAll('.tabs button')) {
  button.addEventListener('click', () => {
    tab = button.dataset.tab;
    for (const b of document.querySelectorAll('.tabs button')) b.classList.toggle('active', b === button);
    ui.schema.hidden = tab !== 'schema';
    ui.rust.hidden = tab !== 'rust';
    renderOutputs();
  });
}
ui.share.addEventListener('click', async () => {
  const payload = { name: ui.name.value, md: ui.md.value, toml: ui.toml.value, document: ui.doc.value, type: current.type };
  history.replaceState(null, '', `#s=${await pack(payload)}`);
  ui.shareLink.value = location.href;
  ui.shareLink.select();
});

const shared = location.hash.startsWith('#s=') ? await unpack(location.hash.slice(3)).catch(() => null) : null;
if (shared) {
  load(shared);
} else {
  const first = examples.find((e) => e.name === 'task_packet') ?? examples[0];
  ui.example.value = first.name;
  load(first);
}
const wasmBytes = performance.getEntriesByName(new URL('specmint_wasm.wasm', location.href).href)[0];
ui.status.textContent = `module loaded in ${loadMs.toFixed(0)} ms${wasmBytes?.transferSize ? ` (${(wasmBytes.transferSize / 1024).toFixed(0)} KiB transferred)` : ''}`;
document.body.dataset.loadMs = loadMs.toFixed(1);

window.playground = {
  ready: Promise.resolve(),
  specmint,
  setSpec({ name, md, toml }) {
    ui.name.value = name;
    ui.md.value = md;
    ui.toml.value = toml ?? '';
    update();
    return this.state();
  },
  setDocument(text) {
    ui.doc.value = text;
    update();
    return this.state();
  },
  setType(type) {
    ui.type.value = type;
    current.type = type;
    renderOutputs();
    update();
    return this.state();
  },
  state() {
    return structuredClone(current);
  },
};
