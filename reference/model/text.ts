// Message text as Zulip normalizes it; lengths are counted in characters (code points).

import { JsonError } from './params.js';

const TRUNCATED_CONTENT_SUFFIX = '\n[message truncated]';
const TRUNCATED_TOPIC_SUFFIX = '...';

export function characterLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

function firstCharacters(text: string, count: number): string {
  return Array.from(text).slice(0, count).join('');
}

/** Strips trailing whitespace and leading newlines, refuses empty and NUL, truncates long. */
export function normalizeContent(content: string, maxLength: number): string {
  const trimmed = content.trimEnd();
  const body = trimmed.charCodeAt(0) === 10 ? trimmed.replace(/^\n+/, '') : trimmed;
  if (body === '') throw new JsonError('Message must not be empty');
  if (body.includes('\0')) throw new JsonError('Message must not contain null bytes');
  if (body.length <= maxLength || characterLength(body) <= maxLength) return body;
  return firstCharacters(body, maxLength - TRUNCATED_CONTENT_SUFFIX.length) + TRUNCATED_CONTENT_SUFFIX;
}

export function truncateTopic(topic: string, maxLength: number): string {
  if (topic.length <= maxLength || characterLength(topic) <= maxLength) return topic;
  return firstCharacters(topic, maxLength - TRUNCATED_TOPIC_SUFFIX.length) + TRUNCATED_TOPIC_SUFFIX;
}
