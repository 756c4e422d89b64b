// The shapes of the answers checks read. A check reads an answer only through its shape, so
// that a malformed answer (a missing field, a null in a list, a string for a number) fails the
// rule with a message that says what was wrong, instead of throwing inside the check.

/** A shape: a type name, `[shape]` for a list of it, an object of shapes (a key ending in `?` may be absent), or `oneOf`. */
export type Shape =
  | 'integer' | 'number' | 'string' | 'boolean' | 'object' | 'null' | 'any'
  | readonly [Shape]
  | { readonly oneOf: readonly Shape[] }
  | { readonly [key: string]: Shape };

const isOneOf = (shape: Shape): shape is { readonly oneOf: readonly Shape[] } => typeof shape === 'object' && !Array.isArray(shape) && Array.isArray((shape as { oneOf?: unknown }).oneOf);

/** JSON with object keys sorted, to compare objects whatever order a server writes their keys in. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : item));
}

/** Whether two JSON values are the same structure: the same keys and values, whatever their key order. */
export const sameJson = (a: unknown, b: unknown) => canonical(a) === canonical(b);

export function describeShape(shape: Shape): string {
  if (typeof shape === 'string') return shape === 'integer' ? 'an integer' : shape === 'any' ? 'a value' : `a ${shape}`;
  if (Array.isArray(shape)) return `a list of ${describeShape(shape[0]!).replace(/^an? /, '')}s`;
  if (isOneOf(shape)) return shape.oneOf.map(describeShape).join(' or ');
  return 'an object';
}

/** Where `value` departs from `shape` (its path and what was there), or null. */
export function mismatch(value: unknown, shape: Shape, path = ''): string | null {
  const found = () => `${path || 'the body'} is ${value === undefined ? 'missing' : JSON.stringify(value)?.slice(0, 80)}, not ${describeShape(shape)}`;
  if (typeof shape === 'string') {
    switch (shape) {
      case 'any': return value === undefined ? found() : null;
      case 'integer': return Number.isInteger(value) ? null : found();
      case 'object': return value !== null && typeof value === 'object' && !Array.isArray(value) ? null : found();
      case 'null': return value === null ? null : found();
      default: return typeof value === shape && !(shape === 'number' && !Number.isFinite(value)) ? null : found();
    }
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return found();
    for (const [index, item] of value.entries()) {
      const wrong = mismatch(item, shape[0]!, `${path}[${index}]`);
      if (wrong) return wrong;
    }
    return null;
  }
  if (isOneOf(shape)) return shape.oneOf.some((option) => mismatch(value, option, path) === null) ? null : found();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return found();
  for (const [key, inner] of Object.entries(shape)) {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    const item = (value as Record<string, unknown>)[name];
    if (optional && item === undefined) continue;
    const wrong = mismatch(item, inner, path ? `${path}.${name}` : name);
    if (wrong) return wrong;
  }
  return null;
}

// The answers of the operations checks read (Zulip's shapes where the spec shows none).
export const SHAPES = {
  drafts: { drafts: [{ id: 'integer', type: 'string', to: ['integer'], topic: 'string', content: 'string', 'timestamp?': 'number' }] },
  createdDrafts: { ids: ['integer'] },
  scheduledMessages: { scheduled_messages: [{ scheduled_message_id: 'integer', type: 'string', to: { oneOf: ['integer', ['integer']] }, content: 'string', 'topic?': 'string', scheduled_delivery_timestamp: 'integer', 'failed?': 'boolean' }] },
  messages: { messages: [{ id: 'integer', sender_id: 'integer', content: 'string', type: 'string', 'flags?': ['string'] }] },
  message: { message: { id: 'integer', content: 'string' } },
  flags: { messages: ['integer'] },
  // A field created without a name (fields.name-optional) may be listed with none.
  profileFields: { custom_fields: [{ id: 'integer', 'name?': { oneOf: ['string', 'null'] }, type: 'integer', 'hint?': 'string' }] },
  emoji: { emoji: 'object' },
  emojiRecord: { name: 'string', 'deactivated?': 'boolean' },
  reminders: { reminders: [{ reminder_id: 'integer', scheduled_delivery_timestamp: 'integer' }] },
  register: { queue_id: { oneOf: ['string', 'integer'] }, 'last_event_id?': 'integer' },
  events: { events: [{ id: 'integer', type: 'string' }] },
  subscriptions: { subscriptions: [{ stream_id: 'integer', name: 'string' }] },
  sent: { id: 'integer' },
} as const satisfies Record<string, Shape>;
