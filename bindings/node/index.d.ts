// specmint's validators from Node: every rule of a spec, as `specmint validate` applies it.

/** A document: its text, or its bytes (a Buffer, as read from a file, or any Uint8Array). */
export type Data = string | Buffer | Uint8Array;

/** One violation, as the CLI's JSON verdict lists it. */
export interface ValidationErrorItem {
  /** The spec's error code, e.g. `field_too_long`. */
  code: string;
  /** The path in the spec's notation (`constraints[3].text`); `""` for the document. */
  path: string;
  /** The RFC 6901 pointer (`/constraints/3/text`); `""` for the document. */
  pointer: string;
  /** The message, naming the item. */
  message: string;
  /** The measured quantity (chars, items, bytes), where the rule has numbers. */
  measured?: number;
  /** The limit, where the rule has numbers. */
  limit?: number;
  /** The 1-based line in the input, where it can be placed. */
  line?: number;
  /** The 1-based column (in chars), where it can be placed. */
  column?: number;
}

/**
 * A document's verdict: `valid`, and the violations in document order. `valid` is judged when
 * the Report is made, by every rule; a refused document's `errors` are built when first read
 * (from a copy of its bytes), so a caller that only asks `valid` does not pay for them.
 */
export declare class Report {
  readonly valid: boolean;
  /** The violations in document order (`[]` when valid); built on first read, then kept. */
  readonly errors: ValidationErrorItem[];
  /** The CLI's JSON verdict (`specmint validate --format json`) less `type` and `file`. */
  toJSON(): { valid: boolean; errors: ValidationErrorItem[] };
}

/** The specs of a spec directory, read by the interpreter (`specmint validate --spec DIR`). */
export declare class Spec {
  /** Loads and checks every spec of `dir`; throws SpecError when one does not check. */
  static load(dir: string): Spec;
  /** The TYPEs it holds (each spec's file stem in kebab case). */
  readonly types: string[];
  /** Judges `data` as TYPE; throws TypeError for an unknown TYPE. */
  /** Judges `data` as TYPE; with `locale` (a BCP 47 tag such as `'zh-TW'`), the messages in that language when the spec has it. */
  validate(type: string, data: Data, locale?: string | null | { locale?: string | null }): Report;
  /** Like `validate`, but throws ValidationError when the document is invalid. */
  check(type: string, data: Data, locale?: string | null | { locale?: string | null }): Report;
  /** TYPE's JSON Schema (what `specmint schema --spec DIR TYPE` prints); with `locale`, each rule's message in that language as ajv-errors reads it (`--locale TAG`). */
  schema(type: string, locale?: string | null | { locale?: string | null }): Record<string, unknown>;
}

/** Judges `data` as the bundled TYPE (`task-packet`, `action-envelope`, `task-envelope`, `taskpack`). */
export declare function validate(type: string, data: Data, locale?: string | null | { locale?: string | null }): Report;
/** Like `validate`, but throws ValidationError when the document is invalid. */
export declare function check(type: string, data: Data, locale?: string | null | { locale?: string | null }): Report;
/** The bundled TYPE's JSON Schema. */
export declare function schema(type: string, locale?: string | null | { locale?: string | null }): Record<string, unknown>;
/** The bundled TYPEs. */
export declare function bundledTypes(): string[];

/** A spec directory that cannot be read, or a spec in it that does not check (`file:line:col` diagnostics). */
export declare class SpecError extends Error {}
/** A document refused by `check`. */
export declare class ValidationError extends Error {
  readonly report: Report;
}
