// specmint's validators as a WebAssembly module, for a browser, Deno, an edge worker or Node:
// every rule of a spec, as `specmint validate` applies it. The verdicts come from the module
// (src/lib.rs), which calls the Rust functions the CLI prints from; this file only passes texts
// in and out of its memory (UTF-8) and shapes the answers as the Node binding does (index.d.ts
// there): `validate`, `check`, `schema`, `bundledTypes`, and `Spec` for a spec given as text.
//
//   import { init } from './specmint.mjs';
//   const specmint = await init(fetch('specmint_wasm.wasm'));   // or the bytes, or a Module
//   specmint.validate('task-packet', text).errors;
//   specmint.validate('task-packet', text, 'zh-TW').errors;     // the messages in Traditional Chinese
//   const spec = specmint.Spec.fromText({ 'orders.md': md, 'orders.toml': toml });

/** A spec given as text that does not check; `diagnostics` are its problems, each placed. */
export class SpecError extends Error {
  constructor(message, diagnostics = []) {
    super(message);
    this.name = 'SpecError';
    /** `{file, line, column, message, hint, text}` each (line and column 1-based; 0: the whole file). */
    this.diagnostics = diagnostics;
  }
}

/** A document refused by `check`; `report` is its Report. */
export class ValidationError extends Error {
  constructor(report) {
    const first = report.errors[0];
    super(`invalid document (${report.errors.length} error(s)); first: ${first.message}`);
    this.name = 'ValidationError';
    this.report = report;
  }
}

/** A document's verdict: `valid`, and the violations in document order. */
export class Report {
  #errors;
  #judge;

  // `judge` gives the errors; it is called once, when `errors` is first read of a refused
  // document (`valid` came without building any error).
  constructor(valid, judge) {
    this.valid = valid;
    this.#errors = valid ? [] : undefined;
    this.#judge = valid ? null : judge;
  }

  /** The violations in document order (`[]` when valid), built on first read. */
  get errors() {
    if (this.#errors === undefined) {
      this.#errors = this.#judge();
      this.#judge = null;
    }
    return this.#errors;
  }

  /** The CLI's JSON verdict (`specmint validate --format json`) less `type` and `file`. */
  toJSON() {
    return { valid: this.valid, errors: this.errors };
  }
}

// The fields of an error, in the order of the CLI's JSON verdict (the absent ones left out).
const FIELDS = ['code', 'path', 'pointer', 'message', 'measured', 'limit', 'line', 'column'];

function ordered(error) {
  const out = {};
  for (const field of FIELDS) {
    if (error[field] !== undefined) {
      out[field] = error[field];
    }
  }
  return out;
}

/**
 * Instantiates the module from `source`: its bytes (an ArrayBuffer or a Uint8Array), a
 * compiled `WebAssembly.Module`, or a `Response` (or a promise of one, as `fetch` gives).
 * Resolves to the API.
 */
export async function init(source) {
  const awaited = await source;
  let instance;
  if (awaited instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(awaited, {});
  } else if (typeof Response !== 'undefined' && awaited instanceof Response) {
    // Compiled while it downloads when the server says `application/wasm`.
    const streamed = WebAssembly.instantiateStreaming && awaited.headers.get('content-type') === 'application/wasm';
    ({ instance } = streamed
      ? await WebAssembly.instantiateStreaming(awaited, {})
      : await WebAssembly.instantiate(await awaited.arrayBuffer(), {}));
  } else {
    ({ instance } = await WebAssembly.instantiate(awaited, {}));
  }
  return api(instance.exports);
}

function api(wasm) {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  // The answer of the last call, as text.
  function out() {
    return decoder.decode(new Uint8Array(wasm.memory.buffer, wasm.sm_out_ptr(), wasm.sm_out_len()));
  }

  // `f` called with each of `texts` copied into the module's memory (ptr, len, ptr, len, ...),
  // freed afterwards.
  function withTexts(texts, f) {
    const buffers = texts.map((t) => {
      const bytes = typeof t === 'string' ? encoder.encode(t) : t;
      const ptr = wasm.sm_alloc(bytes.length);
      new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
      return [ptr, bytes.length];
    });
    try {
      return f(...buffers.flat());
    } finally {
      for (const [ptr, len] of buffers) {
        wasm.sm_free(ptr, len);
      }
    }
  }

  // A status below 0 is raised: -1 a TypeError (unknown TYPE), -2 a SpecError, -3 a
  // RangeError (a locale that is not a BCP 47 tag).
  function checkedStatus(status) {
    if (status === -1) {
      throw new TypeError(out());
    }
    if (status === -3) {
      throw new RangeError(`specmint: ${out()}`);
    }
    if (status === -2) {
      const diagnostics = JSON.parse(out());
      throw new SpecError(diagnostics.map((d) => d.text).join('\n'), diagnostics);
    }
    return status;
  }

  function document(data) {
    if (typeof data === 'string') {
      if (!data.isWellFormed()) {
        throw new TypeError('specmint: a document string must be well-formed Unicode; it has a lone surrogate');
      }
      return encoder.encode(data);
    }
    if (data instanceof Uint8Array) {
      return data;
    }
    if (data instanceof ArrayBuffer) {
      return new Uint8Array(data);
    }
    throw new TypeError(`specmint: a document is a string or a Uint8Array, not ${data === null ? 'null' : typeof data}`);
  }

  // `locale` as a caller gives it, as the Node binding takes it: absent (`undefined` or `null`,
  // English), a BCP 47 tag (or a POSIX locale name), or options `{ locale }`; checked now, so
  // a wrong one throws where it was given. '' for English.
  function localeOf(given) {
    const locale = given !== null && typeof given === 'object' ? given.locale : given;
    if (locale === undefined || locale === null) {
      return '';
    }
    if (typeof locale !== 'string') {
      throw new TypeError(`specmint: a locale is a string such as 'zh-TW', not ${typeof locale}`);
    }
    withTexts([locale], (ptr, len) => checkedStatus(wasm.sm_locale_error(ptr, len)));
    return locale;
  }

  // The Report on `data` with `accepts(ptr, len)` and `verdict(ptr, len)` of one TYPE.
  function judge(accepts, verdict, data) {
    const bytes = document(data);
    const valid = withTexts([bytes], (ptr, len) => checkedStatus(accepts(ptr, len))) === 1;
    if (valid) {
      return new Report(true, null);
    }
    const copy = bytes.slice();
    return new Report(false, () => {
      withTexts([copy], (ptr, len) => checkedStatus(verdict(ptr, len)));
      return JSON.parse(out()).errors.map(ordered);
    });
  }

  function checked(report) {
    if (!report.valid) {
      throw new ValidationError(report);
    }
    return report;
  }

  const bundledIndexes = new Map();
  function bundledIndex(type) {
    let index = bundledIndexes.get(type);
    if (index === undefined) {
      index = withTexts([String(type)], (ptr, len) => checkedStatus(wasm.sm_bundled_index(ptr, len)));
      bundledIndexes.set(type, index);
    }
    return index;
  }

  /**
   * Judges `data` (a string or bytes) as the bundled TYPE; with `locale` (a BCP 47 tag such as
   * 'zh-TW', or `{ locale }`), the messages in that language when the spec has it.
   */
  function validate(type, data, locale) {
    const index = bundledIndex(type);
    const wanted = localeOf(locale);
    return judge(
      (ptr, len) => wasm.sm_bundled_accepts(index, ptr, len),
      wanted === ''
        ? (ptr, len) => wasm.sm_bundled_verdict(index, ptr, len)
        : (ptr, len) => withTexts([wanted], (l, ll) => wasm.sm_bundled_verdict_in(index, ptr, len, l, ll)),
      data,
    );
  }

  function check(type, data, locale) {
    return checked(validate(type, data, locale));
  }

  /** The bundled TYPE's JSON Schema, as an object. */
  function schema(type) {
    checkedStatus(wasm.sm_bundled_schema(bundledIndex(type)));
    return JSON.parse(out());
  }

  function bundledTypes() {
    wasm.sm_bundled_types();
    return JSON.parse(out());
  }

  // Frees a spec's memory in the module when its Spec is collected (`free()` does it at once).
  const registry = typeof FinalizationRegistry === 'undefined'
    ? null
    : new FinalizationRegistry((handle) => wasm.sm_spec_free(handle));

  /** Specs given as text, judged by the interpreter (`specmint validate --spec DIR`). */
  class Spec {
    #handle;
    #indexes = new Map();

    constructor(handle) {
      this.#handle = handle;
      registry?.register(this, handle, this);
    }

    /**
     * Loads and checks the specs among `files` (file name → text: each `<name>.md` with its
     * `<name>.toml` sidecar, and its locale files `<name>.<tag>.md` when it has some), shown in the directory `dir` (as `--spec DIR` names it, `spec`
     * by default: diagnostics say `spec/<name>.md:line:col`). Throws SpecError with every
     * diagnostic when one does not check.
     */
    static fromText(files, dir = 'spec') {
      const handle = withTexts([JSON.stringify(files), String(dir)], (f, fl, d, dl) => checkedStatus(wasm.sm_spec_load(f, fl, d, dl)));
      return new Spec(handle);
    }

    /** The TYPEs it holds (each spec's file stem in kebab case). */
    get types() {
      checkedStatus(wasm.sm_spec_types(this.#handle));
      return JSON.parse(out());
    }

    #index(type) {
      let index = this.#indexes.get(type);
      if (index === undefined) {
        index = withTexts([String(type)], (ptr, len) => checkedStatus(wasm.sm_spec_index(this.#handle, ptr, len)));
        this.#indexes.set(type, index);
      }
      return index;
    }

    /**
     * Judges `data` as TYPE; throws TypeError for an unknown TYPE. With `locale`, the messages
     * in that language when the spec has it (its locale files were among the texts given).
     */
    validate(type, data, locale) {
      const index = this.#index(type);
      const handle = this.#handle;
      const wanted = localeOf(locale);
      return judge(
        (ptr, len) => wasm.sm_spec_accepts(handle, index, ptr, len),
        wanted === ''
          ? (ptr, len) => wasm.sm_spec_verdict(handle, index, ptr, len)
          : (ptr, len) => withTexts([wanted], (l, ll) => wasm.sm_spec_verdict_in(handle, index, ptr, len, l, ll)),
        data,
      );
    }

    check(type, data, locale) {
      return checked(this.validate(type, data, locale));
    }

    /** TYPE's JSON Schema (what `specmint schema --spec DIR TYPE` prints), as an object. */
    schema(type) {
      checkedStatus(wasm.sm_spec_schema(this.#handle, this.#index(type)));
      return JSON.parse(out());
    }

    /** TYPE's JSON Schema as text, exactly as `specmint schema --spec DIR TYPE` prints it. */
    schemaText(type) {
      checkedStatus(wasm.sm_spec_schema(this.#handle, this.#index(type)));
      return out();
    }

    /** The Rust module `specmint generate --spec DIR` writes for TYPE (`rust/<name>.rs`). */
    rust(type) {
      checkedStatus(wasm.sm_spec_rust(this.#handle, this.#index(type)));
      return out();
    }

    /** Frees the spec's memory in the module; the Spec cannot be used afterwards. */
    free() {
      registry?.unregister(this);
      wasm.sm_spec_free(this.#handle);
      this.#handle = -1;
    }
  }

  /** The diagnostics of the specs among `files` (as `Spec.fromText` takes them): `[]` when they check. */
  function diagnostics(files, dir = 'spec') {
    try {
      Spec.fromText(files, dir).free();
      return [];
    } catch (e) {
      if (e instanceof SpecError) {
        return e.diagnostics;
      }
      throw e;
    }
  }

  return { validate, check, schema, bundledTypes, diagnostics, Spec, Report, SpecError, ValidationError };
}
