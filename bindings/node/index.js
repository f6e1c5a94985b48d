'use strict';
// specmint's validators from Node: every rule of a spec, as `specmint validate` applies it.
// The verdicts come from the native addon (src/lib.rs), which calls the Rust functions the CLI
// prints from; this file only loads it and shapes its answers (see index.d.ts for the API): a
// Report's `valid` comes alone from the addon, and its `errors` are judged and built when read.

const fs = require('node:fs');
const path = require('node:path');
const { inspect } = require('node:util');
const { platformArchABI } = require('./platform.js');

/**
 * The native addon: the one `npm run build` wrote beside this file (`specmint.<platform>.node`,
 * or a `specmint.node`), else the platform package an installed `specmint` brings
 * (`specmint-<platform>`, one of its optionalDependencies; scripts/package.sh builds both).
 */
function loadNative() {
  const suffix = platformArchABI();
  const candidates = [`specmint.${suffix}.node`, 'specmint.node'];
  for (const name of candidates) {
    const file = path.join(__dirname, name);
    if (fs.existsSync(file)) {
      return require(file);
    }
  }
  const platformPackage = `specmint-${suffix}`;
  try {
    return require(platformPackage);
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND') {
      throw error;
    }
  }
  throw new Error(
    `specmint: no native addon for ${suffix}: neither ${candidates.join(' nor ')} in ${__dirname} `
      + `nor the package ${platformPackage} (install it beside specmint, or run \`npm run build\` in ${__dirname})`,
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

// `locale` as a caller gives it: absent (`undefined` or `null`, English), a BCP 47 tag (or a
// POSIX locale name), or options `{ locale }`; checked now, so a wrong one throws where it was
// given.
function localeOf(given) {
  const locale = given !== null && typeof given === 'object' ? given.locale : given;
  if (locale === undefined || locale === null) {
    return undefined;
  }
  if (typeof locale !== 'string') {
    throw new TypeError(`specmint: a locale is a string such as 'zh-TW', not ${typeof locale}`);
  }
  const why = native.localeError(locale);
  if (why !== null && why !== undefined) {
    throw new RangeError(`specmint: ${why}`);
  }
  return locale;
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
// reuses the Buffer; of a document over the TYPE's size limit only the first `limit + 1` bytes
// cross or are copied, with its length, so a huge document is never held twice (a string's
// UTF-8 length is counted without converting it).
// A schema as `specmint schema [--locale TAG]` prints it, parsed; with a locale the spec has
// no messages serving, a RangeError naming the ones it has.
function schemaOf(read, locale) {
  const tag = localeOf(locale);
  try {
    return JSON.parse(call(() => read(tag)));
  } catch (e) {
    if (tag !== undefined && e && e.code === 'GenericFailure') {
      throw new RangeError(`specmint: ${e.message}`);
    }
    throw e;
  }
}

function judge(source, [accepts, acceptsText, errors, errorsText, maxInputBytes], index, data, locale) {
  if (typeof data === 'string') {
    // Each UTF-16 unit is at least one UTF-8 byte: a string this short is under any limit the
    // copy need fear.
    if (data.length > SMALL) {
      const limit = call(() => maxInputBytes.call(source, index));
      const total = Buffer.byteLength(data, 'utf8');
      if (total > limit) {
        wellFormed(data);
        const head = data.slice(0, limit + 1);
        return new Report(false, () => call(() => errorsText.call(source, index, head, total, locale)));
      }
    }
    // Bit 0 the verdict; REPLACED when the UTF-8 holds a U+FFFD, which is where a lone
    // surrogate would have gone: only then is the whole string scanned for one.
    const answer = call(() => acceptsText.call(source, index, data));
    if ((answer & REPLACED) !== 0) {
      wellFormed(data);
    }
    if ((answer & 1) === 1) {
      return new Report(true, null);
    }
    return new Report(false, () => call(() => errorsText.call(source, index, data, undefined, locale)));
  }
  if (!(data instanceof Uint8Array)) {
    throw new TypeError(`specmint: a document is a string or a Buffer, not ${data === null ? 'null' : typeof data}`);
  }
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const valid = call(() => accepts.call(source, index, bytes));
  if (valid) {
    return new Report(true, null);
  }
  const total = bytes.length;
  const limit = total > SMALL ? call(() => maxInputBytes.call(source, index)) : total;
  const copy = Buffer.from(total > limit ? bytes.subarray(0, limit + 1) : bytes);
  return new Report(false, () => call(() => errors.call(source, index, copy, total, locale)));
}

// The bit of an `acceptsText` answer saying its UTF-8 holds a U+FFFD (src/lib.rs, REPLACED).
const REPLACED = 2;

// A lone surrogate is no Unicode text, so no JSON text: refused as Python refuses it, rather
// than judged as the U+FFFD that N-API would turn it into.
function wellFormed(data) {
  if (!data.isWellFormed()) {
    throw new TypeError(`specmint: a document string must be well-formed Unicode; it has a lone surrogate at index ${loneSurrogate(data)}`);
  }
}

// The index of the first lone surrogate of `text` (one that is not half of a pair).
function loneSurrogate(text) {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    if (unit >= 0xd800 && unit <= 0xdfff) {
      return i;
    }
  }
  return -1;
}

// Documents up to this many bytes (or UTF-16 units) are judged without asking the TYPE's size
// limit: copying them is cheap whatever the limit.
const SMALL = 1 << 16;

const specFunctions = [
  native.NativeSpec.prototype.accepts,
  native.NativeSpec.prototype.acceptsText,
  native.NativeSpec.prototype.errors,
  native.NativeSpec.prototype.errorsText,
  native.NativeSpec.prototype.maxInputBytes,
];
const bundledFunctions = [
  native.bundledAccepts,
  native.bundledAcceptsText,
  native.bundledErrors,
  native.bundledErrorsText,
  native.bundledMaxInputBytes,
];

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

  validate(type, data, locale) {
    const inner = this._inner;
    const index = indexOf(this._indexes, (t) => inner.index(t), type);
    return judge(inner, specFunctions, index, data, localeOf(locale));
  }

  check(type, data, locale) {
    return checked(this.validate(type, data, locale));
  }

  schema(type, locale) {
    return schemaOf((tag) => this._inner.schema(type, tag), locale);
  }
}

const bundledIndexes = new Map();

/** Judges `data` (a string or a Buffer) as the bundled TYPE. */
function validate(type, data, locale) {
  const index = indexOf(bundledIndexes, native.bundledIndex, type);
  return judge(native, bundledFunctions, index, data, localeOf(locale));
}

function check(type, data, locale) {
  return checked(validate(type, data, locale));
}

/** The bundled TYPE's JSON Schema, as an object. */
function schema(type, locale) {
  return schemaOf((tag) => native.schemaBundled(type, tag), locale);
}

function bundledTypes() {
  return native.bundledTypes();
}

module.exports = { validate, check, schema, bundledTypes, Spec, Report, SpecError, ValidationError };
