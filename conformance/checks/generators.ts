// Generators shared by the areas' checks.

import fc from 'fast-check';

/** Lengths are counted in characters (code points), as the spec's limits are. */
export function characterLength(value: string): number {
  let length = 0;
  for (const _ of value) length++;
  return length;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\ufeff]/g;

/**
 * Unicode text without control characters or surrounding whitespace, at least one character: any
 * grapheme, and often the characters of MARKED (below), which must come back as sent as much as
 * letters must; random graphemes seldom hold them.
 */
export function text(maxGraphemes: number): fc.Arbitrary<string> {
  const unit = fc.oneof({ arbitrary: fc.constantFrom(...MARKED_CHARACTERS), weight: 1 }, { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 2 }, { arbitrary: fc.constant(' '), weight: 1 });
  return fc.array(unit, { minLength: 1, maxLength: maxGraphemes }).map((parts) => {
    const clean = parts.join('').replace(CONTROL, '').trim();
    return clean === '' ? 'x' : clean;
  });
}

/** A topic: text within the target's limit, counted in characters. */
export function topicText(maxTopicLength: number): fc.Arbitrary<string> {
  return text(Math.min(20, maxTopicLength)).map((topic) => Array.from(topic).slice(0, maxTopicLength).join('').trim() || 'x');
}

/**
 * A case's topic: its token and a few words, within the target's topic limit (which may be as
 * short as twenty characters). Where the whole does not fit, the run's prefix is left out of the
 * token and then the end cut: the case's content carries the whole token, and finds the case.
 */
export function caseTopic(limit: { readonly prefix: string; readonly probe: { readonly maxTopicLength: number } }, token: string, words: string): string {
  const max = limit.probe.maxTopicLength;
  const whole = `${token} ${words}`;
  if (characterLength(whole) <= max) return whole;
  const tail = token.startsWith(`${limit.prefix}-`) ? token.slice(limit.prefix.length + 1) : token;
  return fitTopic(`${tail} ${words}`, max);
}

/** An ID no channel, user or scheduled message has: what a check names to be refused as missing. */
export const MISSING_ID = 1_987_654_321;

/** A fixed topic cut to the target's limit, counted in characters. */
export function fitTopic(topic: string, max: number): string {
  return Array.from(topic).slice(0, max).join('').trim() || 'x';
}

/**
 * What must come back as sent: the characters that mean something in Markdown, HTML and URLs, a
 * backslash, a character outside the Basic Multilingual Plane, a combining mark (é as e and U+0301)
 * and right-to-left text. No digit: a number in a link would read as a message's ID.
 */
export const MARKED = '<b>&amp;</b> *a* _b_ `c` [d](https://e.invalid/?f=x&g=y#h) \\ 😀 e\u0301 שלום';

/** The same kinds of character in few enough for a topic (twenty at most). */
export const MARKED_SHORT = '<&> *a* `c` \\ 😀 e\u0301 ש';

const MARKED_CHARACTERS = [...new Set(Array.from(MARKED.replace(/\s/g, '')))];
