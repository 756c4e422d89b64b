// Custom emoji: spec "Endpoints 8. Upload custom emoji" and "Limits", with Zulip's GET and
// DELETE /realm/emoji to read and remove them, and the images served at their source_url.

import { crc32 } from 'node:zlib';
import { everyone } from './defaults.js';
import { listening, sendEvent } from './events.js';
import { RAW, type Request } from './http.js';
import type { CustomEmoji, Realm, User } from './model.js';
import { JsonError } from './params.js';

const ASCII_NAME = /^[A-Za-z0-9 _-]+$/;
const UNICODE_NAME = /^[\p{L}\p{N} _-]+$/u;

/** What makes two names the same emoji: "Case is ignored. Underscores are treated as spaces." */
function nameKey(realm: Realm, name: string): string {
  let key = realm.fault('emoji.name-case-ignored') ? name : name.toLowerCase();
  if (!realm.fault('emoji.underscores-are-spaces')) key = key.replace(/_/g, ' ');
  return key;
}

/**
 * emoji.name-characters; emoji.name-alphabet; emoji.name-rules: letters (ASCII in Zulip's
 * dialect, any in the alternate one), digits, dashes, spaces and underscores. Zulip stores the
 * name stripped, lower case, with underscores; the alternate dialect as given.
 */
function checkEmojiName(realm: Realm, given: string): string {
  const alternate = realm.alternate('emoji.name-rules');
  const name = alternate ? given : given.trim();
  if (name === '') throw new JsonError('Emoji name is missing');
  const allowed = alternate ? UNICODE_NAME : ASCII_NAME;
  if (name.includes('-') && realm.fault('emoji.name-alphabet')) throw new JsonError('Emoji names may not contain dashes');
  if (!allowed.test(name) && !realm.fault('emoji.name-characters')) {
    throw new JsonError('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
  }
  if (alternate && [...name].length > 40) throw new JsonError('Emoji names are at most 40 characters long');
  if (alternate) return name;
  let stored = realm.fault('emoji.underscores-are-spaces') ? name : name.replace(/ /g, '_');
  if (!realm.fault('emoji.name-case-ignored')) stored = stored.toLowerCase();
  return stored;
}

/** emoji.permission: Zulip's can_add_custom_emoji_group (default role:members); guests never. */
export function mayUploadEmoji(realm: Realm, user: User): boolean {
  if (user.role === 'guest' || user.isBot) return false;
  return realm.emojiUploaders === 'members' || realm.isAdministrator(user);
}

/** emoji.image-bytes: a PNG, GIF, JPEG or WebP, whole, by its bytes. */
export function isImage(data: Buffer): boolean {
  if (data.length >= 8 && data.compare(PNG_SIGNATURE, 0, 8, 0, 8) === 0) return isWholePng(data);
  const head = data.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return data.length > 13 && data[data.length - 1] === 0x3b;
  if (data.length > 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return data[data.length - 2] === 0xff && data[data.length - 1] === 0xd9;
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return data.readUInt32LE(4) + 8 === data.length;
  return false;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IHDR = 0x49484452;
const IEND = 0x49454e44;

/** PNG chunks from the signature to IEND, each with its CRC, IHDR first, nothing after. */
function isWholePng(data: Buffer): boolean {
  let at = 8;
  let first = true;
  while (at + 12 <= data.length) {
    const length = data.readUInt32BE(at);
    const type = data.readUInt32BE(at + 4);
    const end = at + 12 + length;
    if (end > data.length) return false;
    if (first && type !== IHDR) return false;
    if (crc32(data.subarray(at + 4, at + 8 + length)) !== data.readUInt32BE(at + 8 + length)) return false;
    if (type === IEND) return end === data.length;
    first = false;
    at = end;
  }
  return false;
}

const EXTENSIONS: Record<string, string> = { PNG: 'png', GIF: 'gif', JPE: 'jpg', RIF: 'webp' };
const TYPES: Record<string, string> = { png: 'image/png', gif: 'image/gif', jpg: 'image/jpeg', webp: 'image/webp' };
function extension(data: Buffer): string {
  const mark = data[0] === 0x89 ? 'PNG' : data[0] === 0xff ? 'JPE' : data.subarray(0, 3).toString('latin1');
  return EXTENSIONS[mark] ?? 'bin';
}

/** emoji.listing-shape */
export function realmEmojiDict(realm: Realm): Record<string, unknown> {
  const alternate = realm.alternate('emoji.listing-shape');
  const entries = [...realm.emoji.values()].filter((emoji) => !alternate || !emoji.deactivated);
  return Object.fromEntries(entries.map((emoji) => [String(emoji.id), emojiDict(realm, emoji)]));
}

function emojiDict(realm: Realm, emoji: CustomEmoji): Record<string, unknown> {
  return {
    id: String(emoji.id), name: emoji.name, source_url: `${realm.url}/user_avatars/1/emoji/images/${emoji.id}.${extension(emoji.data)}`,
    deactivated: emoji.deactivated, author_id: emoji.authorId, still_url: null,
  };
}

function sendEmojiEvent(realm: Realm, change: { add: CustomEmoji } | { remove: string }): void {
  if (!listening(realm, 'realm_emoji', everyone(realm))) return;
  if (!realm.alternate('emoji.listing-shape')) {
    sendEvent(realm, { type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiDict(realm) }, everyone(realm));
  } else if ('add' in change) {
    sendEvent(realm, { type: 'realm_emoji', op: 'add', emoji: emojiDict(realm, change.add) }, everyone(realm));
  } else {
    sendEvent(realm, { type: 'realm_emoji', op: 'remove', name: change.remove }, everyone(realm));
  }
}

/** Active emoji by the key of their name, so that an upload looks its name up without a scan. */
const activeByKey = new WeakMap<Realm, Map<string, CustomEmoji>>();
function activeIndex(realm: Realm): Map<string, CustomEmoji> {
  let index = activeByKey.get(realm);
  if (!index) activeByKey.set(realm, (index = new Map()));
  return index;
}

function activeEmoji(realm: Realm, name: string): CustomEmoji | undefined {
  return activeIndex(realm).get(nameKey(realm, name));
}

function deactivate(realm: Realm, emoji: CustomEmoji): void {
  emoji.deactivated = true;
  if (activeIndex(realm).get(nameKey(realm, emoji.name)) === emoji) activeIndex(realm).delete(nameKey(realm, emoji.name));
}

// ---- Operations ---------------------------------------------------------------------------

/** Zulip's order of checks: name, permission, name in use, one file, then the image. */
export function uploadEmoji({ realm, user, path, files }: Request) {
  if (user.role === 'guest') throw new JsonError('Not allowed for guest users');
  const name = checkEmojiName(realm, path.emoji_name!);
  if (!mayUploadEmoji(realm, user)) throw new JsonError('Insufficient permission');
  const existing = activeEmoji(realm, name);
  // emoji.name-rules: Zulip refuses an active name; the alternate dialect replaces that emoji.
  if (existing && !realm.alternate('emoji.name-rules') && !realm.fault('emoji.name-rules')) throw new JsonError('A custom emoji with this name already exists.');
  if (files.length !== 1 && !(realm.fault('emoji.one-file-part') && files.length > 1)) throw new JsonError('You must upload exactly one file.');
  const [file] = files;
  const declaredImage = file!.mimeType.startsWith('image/');
  const image = realm.fault('emoji.images-only') ? declaredImage || isImage(file!.data) : isImage(file!.data);
  const refusedType = (realm.alternate('emoji.image-bytes') || realm.fault('emoji.image-bytes')) && !declaredImage;
  if (!image || refusedType) throw new JsonError('Invalid image format', 400, 'BAD_IMAGE');
  if (existing) {
    deactivate(realm, existing);
    sendEmojiEvent(realm, { remove: existing.name });
  }
  const emoji: CustomEmoji = { id: realm.nextEmojiId(), name, authorId: user.id, data: file!.data, mimeType: TYPES[extension(file!.data)] ?? file!.mimeType, deactivated: false };
  // The fault emoji.upload-stores: a GIF is not kept.
  if (!(realm.fault('emoji.upload-stores') && extension(emoji.data) === 'gif')) {
    realm.emoji.set(emoji.id, emoji);
    activeIndex(realm).set(nameKey(realm, name), emoji);
  }
  sendEmojiEvent(realm, { add: emoji });
  return {};
}

export function getRealmEmoji({ realm }: Request) {
  return { emoji: realmEmojiDict(realm) };
}

export function deleteEmoji({ realm, user, path }: Request) {
  const name = path.emoji_name!;
  const found = activeEmoji(realm, name);
  // Zulip looks the name up exactly as given; the alternate dialect as the spec compares names.
  const emoji = realm.alternate('emoji.listing-shape') || found?.name === name ? found : undefined;
  if (!emoji) throw new JsonError(`Emoji '${name}' does not exist`, 404);
  const allowed = realm.alternate('emoji.permission') || realm.fault('emoji.permission') ? mayUploadEmoji(realm, user) : realm.isAdministrator(user) || emoji.authorId === user.id;
  if (!allowed) throw new JsonError('Must be an organization administrator or emoji author');
  deactivate(realm, emoji);
  if (realm.fault('emoji.listing-shape')) realm.emoji.delete(emoji.id);
  sendEmojiEvent(realm, { remove: emoji.name });
  return {};
}

/** GET /user_avatars/1/emoji/images/{file}: the stored image, as Zulip serves uploads (no credentials). */
export function serveEmojiImage({ realm, path }: Request) {
  const id = Number(/^(\d+)\./.exec(path.file!)?.[1]);
  const emoji = realm.emoji.get(id);
  if (!emoji) throw new JsonError('Not Found', 404);
  return { [RAW]: { type: emoji.mimeType, data: emoji.data } };
}
