// Request parameters: merged from the query string and the body (the body wins), read by
// name and type, with Zulip's error texts. Every name an operation reads is recorded, so that
// the rest can be reported in ignored_parameters_unsupported.

export class JsonError extends Error {
  /** How the alternate dialect says it (general.error-statuses); set for the errors of the spec's error table. */
  alternative: { readonly msg: string; readonly status: number } | null = null;
  /** Refused before the body was read through: the connection closes after the answer. */
  bodyUnread = false;

  constructor(
    readonly msg: string,
    readonly status = 400,
    readonly code = 'BAD_REQUEST',
    readonly extra: Record<string, unknown> = {},
  ) {
    super(msg);
  }

  /** An error of the spec's error table: the alternate dialect keeps its code and says it in these words. */
  otherwise(msg: string, status = this.status === 400 ? 422 : 400): this {
    this.alternative = { msg, status };
    return this;
  }
}

export function missingArgument(name: string): JsonError {
  return new JsonError(`Missing '${name}' argument`, 400, 'REQUEST_VARIABLE_MISSING', { var_name: name });
}

export class Params {
  /** The names read, in the order read (an operation reads a handful: a list is cheaper than a set). */
  private readonly used: string[] = [];

  constructor(private readonly values: ReadonlyMap<string, string>) {}

  static merge(query: URLSearchParams, body: ReadonlyMap<string, string>): Params {
    if (query.size === 0) return new Params(body);
    const values = new Map<string, string>();
    for (const [name, value] of query) values.set(name, value);
    for (const [name, value] of body) values.set(name, value);
    return new Params(values);
  }

  /** The names the request carries, in no stated order; reading none of them. */
  names(): string[] {
    return [...this.values.keys()];
  }

  has(name: string): boolean {
    this.used.push(name);
    return this.values.has(name);
  }

  /** The raw text of a parameter, or undefined when it is absent. */
  string(name: string): string | undefined {
    this.used.push(name);
    return this.values.get(name);
  }

  requiredString(name: string): string {
    const value = this.string(name);
    if (value === undefined) throw missingArgument(name);
    return value;
  }

  /** A JSON-encoded parameter, parsed; undefined when absent. */
  json(name: string): unknown {
    const text = this.string(name);
    if (text === undefined) return undefined;
    // A plain integer, as most JSON parameters are, is read without the JSON parser: the same value.
    if (isPlainInteger(text)) return Number(text);
    try {
      return JSON.parse(text);
    } catch {
      throw new JsonError(`${name} is not valid JSON`);
    }
  }

  int(name: string): number | undefined {
    const value = this.json(name);
    return value === undefined || value === null ? undefined : checkInt(value, name);
  }

  bool(name: string): boolean | undefined {
    const value = this.json(name);
    return value === undefined || value === null ? undefined : checkBool(value, name);
  }

  list(name: string): unknown[] | undefined {
    const value = this.json(name);
    return value === undefined || value === null ? undefined : checkList(value, name);
  }

  /** Names received but never read by the operation, sorted. */
  ignored(): string[] {
    const ignored: string[] = [];
    for (const name of this.values.keys()) if (!this.used.includes(name)) ignored.push(name);
    return ignored.sort();
  }
}

/** Digits, with a minus sign before them, no leading zero, fifteen at most: JSON.parse gives Number's value. */
function isPlainInteger(text: string): boolean {
  const length = text.length;
  let at = text.charCodeAt(0) === 45 ? 1 : 0;
  if (length === at || length - at > 15 || (text.charCodeAt(at) === 48 && length - at > 1)) return false;
  for (; at < length; at++) {
    const code = text.charCodeAt(at);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

export function checkInt(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new JsonError(`${name} is not an integer`);
  if (!Number.isSafeInteger(value)) throw new JsonError(`${name} is too large`);
  return value;
}

export function checkNumber(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new JsonError(`${name} is not a number`);
  return value;
}

export function checkBool(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw new JsonError(`${name} is not a boolean`);
  return value;
}

export function checkString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new JsonError(`${name} is not a string`);
  return value;
}

export function checkList(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) throw new JsonError(`${name} is not a list`);
  return value;
}

export function checkIntList(value: unknown, name: string): number[] {
  const list = checkList(value, name);
  for (let index = 0; index < list.length; index++) {
    const item = list[index];
    if (!Number.isSafeInteger(item)) checkInt(item, `${name}[${index}]`);
  }
  return list as number[];
}

export function checkDict(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new JsonError(`${name} is not a dict`);
  return value as Record<string, unknown>;
}

/** A strict object: every key must be one of `allowed`. */
export function checkStrictDict(value: unknown, name: string, allowed: readonly string[]): Record<string, unknown> {
  const dict = checkDict(value, name);
  for (const key of Object.keys(dict)) {
    if (!allowed.includes(key)) throw new JsonError(`Argument "${key}" at ${name} is unexpected`);
  }
  return dict;
}

export function fieldMissing(name: string): JsonError {
  return new JsonError(`${name} field is missing`);
}

/** A path parameter made of digits; one too large to be an ID matches nothing. */
export function pathId(text: string): number {
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : -1;
}
