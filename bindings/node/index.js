'use strict';
// specmint's validators from Node: every rule of a spec, as `specmint validate` applies it.
// The verdicts come from the native addon (src/lib.rs), which calls the Rust functions the CLI
// prints from; this file only loads it and shapes its answers (see index.d.ts for the API): a
// Report's `valid` comes alone from the addon, and its `errors` are judged and built when read.

const fs = require('node:fs');
const path = require('node:path');
const { inspect } = require('node:util');

/** The addon `npm run build` wrote (`specmint.<platform>.node`), or a `specmint.node`. */
function loadNative() {
  const { platform, arch } = process;
  let abi = '';
  if (platform === 'linux') {
    const glibc = process.report && process.report.getReport().header.glibcVersionRuntime;
    abi = glibc ? '-gnu' : '-musl';
  } else if (platform === 'win32') {
    abi = '-msvc';
  }
  const candidates = [`specmint.${platform}-${arch}${abi}.node`, 'specmint.node'];
  for (const name of candidates) {
    const file = path.join(__dirname, name);
    if (fs.existsSync(file)) {
      return require(file);
    }
  }
  throw new Error(
    `specmint: no native addon (${candidates.join(' or ')}) in ${__dirname}; run \`npm run build\` there`,
  );
}

const native = loadNative();

/** A spec directory that cannot be read, or a spec in it that does not check. */
class SpecError extends Error {
  constructor(message) {
    super(message);
    this.name = 'SpecError';
  }
}

/** A document refused by `check`; `report` is its Report. */
class ValidationError extends Error {
  constructor(report) {
    const first = report.errors[0];
    super(`invalid document (${report.errors.length} error(s)); first: ${first.message}`);
    this.name = 'ValidationError';
    this.report = report;
  }
}

/** A document's verdict: `valid`, and the violations in document order. */
class Report {
  #errors;
  #judge;

  // `judge` gives the errors, built in Rust; it is called once, when `errors` is first read of a
  // refused document (`valid` came without building any error).
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

  [inspect.custom]() {
    return this.toJSON();
  }
}

// The addon's errors: `InvalidArg` is an unknown TYPE (a TypeError), anything else from loading
// a spec directory a SpecError.
function call(f, specError) {
  try {
    return f();
  } catch (e) {
    if (e && e.code === 'InvalidArg') {
      throw new TypeError(e.message);
    }
    if (specError && e && e.code === 'GenericFailure') {
      throw new SpecError(e.message);
    }
    throw e;
  }
}

function checked(report) {
  if (!report.valid) {
    throw new ValidationError(report);
  }
  return report;
}

// A TYPE's index in its addon object, looked up by name once (an unknown TYPE throws there).
function indexOf(indexes, lookup, type) {
  let index = indexes.get(type);
  if (index === undefined) {
    index = call(() => lookup(type));
    indexes.set(type, index);
  }
  return index;
}

// The Report on `data` as the TYPE at `index` of `source` (the addon, or a NativeSpec): `valid`
// from `accepts`, the errors from `errors` when read (each with a `...Text` twin for a string).
// A refused Buffer is copied, so the errors are those of the bytes judged even if the caller
// reuses the Buffer.
function judge(source, [accepts, acceptsText, errors, errorsText], index, data) {
  if (typeof data === 'string') {
    const valid = call(() => acceptsText.call(source, index, data));
    return new Report(valid, () => call(() => errorsText.call(source, index, data)));
  }
  if (!(data instanceof Uint8Array)) {
    throw new TypeError(`specmint: a document is a string or a Buffer, not ${data === null ? 'null' : typeof data}`);
  }
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const valid = call(() => accepts.call(source, index, bytes));
  if (valid) {
    return new Report(true, null);
  }
  const copy = Buffer.from(bytes);
  return new Report(false, () => call(() => errors.call(source, index, copy)));
}

const specFunctions = [
  native.NativeSpec.prototype.accepts,
  native.NativeSpec.prototype.acceptsText,
  native.NativeSpec.prototype.errors,
  native.NativeSpec.prototype.errorsText,
];
const bundledFunctions = [native.bundledAccepts, native.bundledAcceptsText, native.bundledErrors, native.bundledErrorsText];

/** The specs of a spec directory, read by the interpreter (`specmint validate --spec DIR`). */
class Spec {
  constructor(inner) {
    this._inner = inner;
    this._indexes = new Map();
  }

  /** Loads and checks every spec of `dir`; throws SpecError when one does not check. */
  static load(dir) {
    return new Spec(call(() => native.NativeSpec.load(String(dir)), true));
  }

  /** The TYPEs it holds. */
  get types() {
    return this._inner.types;
  }

  validate(type, data) {
    const inner = this._inner;
    const index = indexOf(this._indexes, (t) => inner.index(t), type);
    return judge(inner, specFunctions, index, data);
  }

  check(type, data) {
    return checked(this.validate(type, data));
  }

  schema(type) {
    return JSON.parse(call(() => this._inner.schema(type)));
  }
}

const bundledIndexes = new Map();

/** Judges `data` (a string or a Buffer) as the bundled TYPE. */
function validate(type, data) {
  const index = indexOf(bundledIndexes, native.bundledIndex, type);
  return judge(native, bundledFunctions, index, data);
}

function check(type, data) {
  return checked(validate(type, data));
}

/** The bundled TYPE's JSON Schema, as an object. */
function schema(type) {
  return JSON.parse(call(() => native.schemaBundled(type)));
}

function bundledTypes() {
  return native.bundledTypes();
}

module.exports = { validate, check, schema, bundledTypes, Spec, Report, SpecError, ValidationError };
