// Generators shared by the areas' checks.

import fc from 'fast-check';

/** Lengths are counted in characters (code points), as the spec's limits are. */
export function characterLength(value: string): number {
  let length = 0;
  for (const _ of value) length++;
  return length;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\ufeff]/g;

/** Unicode text without control characters or surrounding whitespace, at least one character. */
export function text(maxGraphemes: number): fc.Arbitrary<string> {
  return fc.string({ unit: 'grapheme', minLength: 1, maxLength: maxGraphemes }).map((value) => {
    const clean = value.replace(CONTROL, '').trim();
    return clean === '' ? 'x' : clean;
  });
}

/** A topic: text within the target's limit, counted in characters. */
export function topicText(maxTopicLength: number): fc.Arbitrary<string> {
  return text(Math.min(20, maxTopicLength)).map((topic) => Array.from(topic).slice(0, maxTopicLength).join('').trim() || 'x');
}
