'use strict';
// specmint's validators from Node: every rule of a spec, as `specmint validate` applies it.
// The verdicts come from the native addon (src/lib.rs), which calls the Rust function the CLI
// prints; this file only loads it and shapes its answers (see index.d.ts for the API).

const fs = require('node:fs');
const path = require('node:path');

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
  constructor(json) {
    const verdict = JSON.parse(json);
    this.valid = verdict.valid;
    this.errors = verdict.errors;
  }

  /** The CLI's JSON verdict (`specmint validate --format json`) less `type` and `file`. */
  toJSON() {
    return { valid: this.valid, errors: this.errors };
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

/** The specs of a spec directory, read by the interpreter (`specmint validate --spec DIR`). */
class Spec {
  constructor(inner) {
    this._inner = inner;
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
    return new Report(call(() => this._inner.validate(type, data)));
  }

  check(type, data) {
    return checked(this.validate(type, data));
  }

  schema(type) {
    return JSON.parse(call(() => this._inner.schema(type)));
  }
}

/** Judges `data` (a string or a Buffer) as the bundled TYPE. */
function validate(type, data) {
  return new Report(call(() => native.validateBundled(type, data)));
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
