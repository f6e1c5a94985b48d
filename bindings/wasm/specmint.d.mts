// specmint's validators as a WebAssembly module: the types of specmint.mjs.

/** A document: its text, or its bytes (UTF-8). */
export type Data = string | Uint8Array | ArrayBuffer;

/** One violation, as the CLI's JSON verdict lists it. */
export interface ValidationErrorItem {
  /** The spec's error code, e.g. `field_too_long`. */
  code: string;
  /** The path in the spec's notation (`constraints[3].text`); `""` for the document. */
  path: string;
  /** The RFC 6901 pointer (`/constraints/3/text`); `""` for the document. */
  pointer: string;
  message: string;
  measured?: number;
  limit?: number;
  /** The 1-based line in the input, where it can be placed. */
  line?: number;
  /** The 1-based column (in chars), where it can be placed. */
  column?: number;
}

/** One problem of a spec that does not check. */
export interface Diagnostic {
  /** The file as shown (`spec/order.md`, `spec/order.toml`). */
  file: string;
  /** 1-based; 0 for a problem of the whole file. */
  line: number;
  /** 1-based, in chars; 0 for a problem of the whole file. */
  column: number;
  message: string;
  hint: string;
  /** `file:line:col: error: message` and the hint, as the CLI prints it. */
  text: string;
}

/**
 * A spec's files: each `<name>.md` with its `<name>.toml` sidecar, and its locale files
 * (`<name>.<tag>.md`, such as `orders.zh-TW.md`) when it has some, by file name.
 */
export type SpecFiles = Record<string, string>;

/**
 * The language of a verdict's messages: a BCP 47 tag such as `'zh-TW'` (or a POSIX locale
 * name), or `{ locale }`; absent or `null`: English. A tag the spec has no messages in is
 * English too; one that is not a tag throws a RangeError.
 */
export type Locale = string | null | { locale?: string | null };

export declare class Report {
  readonly valid: boolean;
  /** The violations in document order (`[]` when valid); built on first read. */
  readonly errors: ValidationErrorItem[];
  /** The CLI's JSON verdict (`specmint validate --format json`) less `type` and `file`. */
  toJSON(): { valid: boolean; errors: ValidationErrorItem[] };
}

export declare class SpecError extends Error {
  readonly diagnostics: Diagnostic[];
}

export declare class ValidationError extends Error {
  readonly report: Report;
}

export declare class Spec {
  /** Loads and checks the specs among `files`, shown in `dir` (default `spec`); throws SpecError. */
  static fromText(files: SpecFiles, dir?: string): Spec;
  readonly types: string[];
  validate(type: string, data: Data, locale?: Locale): Report;
  check(type: string, data: Data, locale?: Locale): Report;
  /** What `specmint schema --spec DIR TYPE` prints, parsed. */
  schema(type: string): Record<string, unknown>;
  /** What `specmint schema --spec DIR TYPE` prints. */
  schemaText(type: string): string;
  /** What `specmint generate --spec DIR` writes to `rust/<name>.rs`. */
  rust(type: string): string;
  free(): void;
}

export interface Specmint {
  /** Judges `data` as the bundled TYPE; with `locale`, the messages in that language. */
  validate(type: string, data: Data, locale?: Locale): Report;
  check(type: string, data: Data, locale?: Locale): Report;
  schema(type: string): Record<string, unknown>;
  bundledTypes(): string[];
  /** The diagnostics of the specs among `files` (`[]` when they check). */
  diagnostics(files: SpecFiles, dir?: string): Diagnostic[];
  Spec: typeof Spec;
  Report: typeof Report;
  SpecError: typeof SpecError;
  ValidationError: typeof ValidationError;
}

/** Instantiates the module from its bytes, a compiled Module, or a Response (or its promise). */
export declare function init(
  source: ArrayBuffer | Uint8Array | WebAssembly.Module | Response | Promise<Response>,
): Promise<Specmint>;
