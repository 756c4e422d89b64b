// Custom emoji: spec "Endpoints 8. Upload custom emoji" and "Limits", with Zulip's GET and
// DELETE /realm/emoji to read and remove them, and the images served at their source_url.

import { crc32 } from 'node:zlib';
import { everyone, listening, sendEvent } from '../model/events.js';
import { RAW, type Request } from '../model/request.js';
import type { CustomEmoji, EmojiChange, Realm, UploadedFile, User } from '../model/model.js';
import { hasShape } from '../model/levels.js';
import { JsonError } from '../model/params.js';

/** emoji.name-characters: letters, digits, dashes, spaces and underscores, in ASCII ... */
export const ASCII_NAME = /^[A-Za-z0-9 _-]+$/;
/** emoji.name-alphabet: ... or, the alphabet not named, in any script. */
export const UNICODE_NAME = /^[\p{L}\p{N} _-]+$/u;
const MIB = 1024 * 1024;

// ---- Rules ------------------------------------------------------------------------------

/** emoji.name-case-ignored; emoji.underscores-are-spaces: "Case is ignored. Underscores are treated as spaces." */
function emojiNameKey(name: string): string {
  return name.toLowerCase().replace(/_/g, ' ');
}

/** emoji.name-characters; emoji.name-alphabet: letters, digits, dashes, spaces and underscores. */
function checkEmojiNameCharacters(name: string, letters: RegExp): void {
  if (!letters.test(name)) throw new JsonError('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

/** emoji.one-file-part */
function filePartsAllowed(): number {
  return 1;
}

/** emoji.one-file-part */
function checkOneFile(files: readonly UploadedFile[]): UploadedFile {
  if (files.length !== 1) throw new JsonError('You must upload exactly one file.');
  return files[0]!;
}

/** emoji.upload-stores: the spec's "image or gif": a PNG, or a GIF of either version, by its signature. */
function isImageOrGif(file: UploadedFile): boolean {
  const data = file.data;
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return true;
  const head = data.subarray(0, 6).toString('latin1');
  return head === 'GIF87a' || head === 'GIF89a';
}

/** emoji.image-bytes: besides, as Zulip takes them, a JPEG or a WebP, by its signature. */
function isOtherImage(file: UploadedFile): boolean {
  const data = file.data;
  return (data.length > 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) || (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP');
}

/** emoji.images-only: the image is whole, by its bytes. */
function isWholeImage(file: UploadedFile): boolean {
  return isWhole(file.data);
}

/** emoji.size-limit: MAX_EMOJI_FILE_SIZE_MIB, in bytes. */
function largestEmojiFile(realm: Realm): number {
  return realm.maxEmojiFileSizeMib * MIB;
}

/** emoji.upload-access: "Access depends on the organization's configuration." */
function mayUploadEmojiByConfiguration(realm: Realm, user: User): boolean {
  return mayUploadEmoji(realm, user);
}

/** emoji.upload-stores */
function storeEmoji(realm: Realm, emoji: CustomEmoji): void {
  realm.emoji.set(emoji.id, emoji);
  activeIndex(realm).set(realm.rules.emojiNameKey(emoji.name), emoji);
}

/** emoji.listing-shape: a removed emoji stays, deactivated. */
function deactivateEmoji(realm: Realm, emoji: CustomEmoji): void {
  emoji.deactivated = true;
  const key = realm.rules.emojiNameKey(emoji.name);
  if (activeIndex(realm).get(key) === emoji) activeIndex(realm).delete(key);
}

export const EMOJI_RULES = { emojiNameKey, checkEmojiNameCharacters, filePartsAllowed, checkOneFile, isImageOrGif, isOtherImage, isWholeImage, largestEmojiFile, mayUploadEmojiByConfiguration, storeEmoji, deactivateEmoji };

// ---- Validation ---------------------------------------------------------------------------

/** emoji.name-rules: the name as the dialect reads, checks and stores it, its characters as the spec says. */
function checkEmojiName(realm: Realm, given: string): string {
  const name = realm.dialect.emojiName(given);
  if (name === '') throw new JsonError('Emoji name is missing');
  realm.rules.checkEmojiNameCharacters(name, realm.dialect.emojiNameLetters());
  realm.dialect.checkEmojiNameLength(name);
  return realm.dialect.storedEmojiName(realm, name);
}

/** emoji.permission: Zulip's can_add_custom_emoji_group (default role:members); guests never. */
export function mayUploadEmoji(realm: Realm, user: User): boolean {
  if (user.role === 'guest' || user.isBot) return false;
  return realm.emojiUploaders === 'members' || realm.isAdministrator(user);
}

/** emoji.images-only: a PNG's chunks whole, a GIF to its trailer, a JPEG to its end marker, a WebP of its stated size. */
function isWhole(data: Buffer): boolean {
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return isWholePng(data);
  const head = data.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return data.length > 13 && data[data.length - 1] === 0x3b;
  if (data.length > 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return data[data.length - 2] === 0xff && data[data.length - 1] === 0xd9;
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return data.readUInt32LE(4) + 8 === data.length;
  return false;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** emoji.images-only: the chunks a whole PNG begins and ends with. */
const IHDR = 0x49484452;
/** emoji.images-only */
const IEND = 0x49454e44;

/** emoji.images-only: PNG chunks from the signature to IEND, each with its CRC, IHDR first, nothing after. */
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

/** emoji.listing-shape: the extension of an image's file name in its source_url, by its first bytes. */
const EXTENSIONS: Record<string, string> = { PNG: 'png', GIF: 'gif', JPE: 'jpg', RIF: 'webp' };
/** emoji.listing-shape */
export function extension(data: Buffer): string {
  const mark = data[0] === 0x89 ? 'PNG' : data[0] === 0xff ? 'JPE' : data.subarray(0, 3).toString('latin1');
  return EXTENSIONS[mark] ?? 'bin';
}

/** emoji.listing-shape */
export function realmEmojiDict(realm: Realm): Record<string, unknown> {
  return Object.fromEntries(realm.dialect.emojiListed([...realm.emoji.values()]).map((emoji) => [String(emoji.id), emojiDict(realm, emoji)]));
}

/** emoji.listing-shape: one emoji as it is listed and announced. */
export function emojiDict(realm: Realm, emoji: CustomEmoji): Record<string, unknown> {
  return {
    id: String(emoji.id), name: emoji.name, source_url: `${realm.url}/user_avatars/1/emoji/images/${emoji.id}.${extension(emoji.data)}`,
    deactivated: emoji.deactivated, author_id: emoji.authorId, still_url: null,
  };
}

/** emoji.listing-shape: the change, to every user's clients. */
function sendEmojiEvent(realm: Realm, change: EmojiChange): void {
  if (listening(realm, 'realm_emoji', everyone(realm))) sendEvent(realm, realm.dialect.emojiEvent(realm, change), everyone(realm));
}

/** Active emoji by the key of their name, so that an upload looks its name up without a scan. */
const activeByKey = new WeakMap<Realm, Map<string, CustomEmoji>>();
function activeIndex(realm: Realm): Map<string, CustomEmoji> {
  let index = activeByKey.get(realm);
  if (!index) activeByKey.set(realm, (index = new Map()));
  return index;
}

function activeEmoji(realm: Realm, name: string): CustomEmoji | undefined {
  return activeIndex(realm).get(realm.rules.emojiNameKey(name));
}

// ---- Operations ---------------------------------------------------------------------------

/** Zulip's order of checks: name, permission, name in use, one file, then the image. */
export function uploadEmoji({ realm, user, path, files }: Request) {
  refuseGuests(user);
  const name = checkEmojiName(realm, path.emoji_name!);
  if (!realm.rules.mayUploadEmojiByConfiguration(realm, user)) throw notPermittedToUpload();
  const existing = activeEmoji(realm, name);
  checkNameFree(realm, existing);
  const file = realm.rules.checkOneFile(files);
  if (!realm.rules.isImageOrGif(file)) checkOtherImage(realm, file);
  checkWholeImage(realm, file);
  realm.dialect.checkDeclaredImageType(file);
  replaceEmoji(realm, existing);
  const emoji: CustomEmoji = { id: realm.nextId('emoji'), name, authorId: user.id, data: file.data, mimeType: file.mimeType, deactivated: false };
  realm.rules.storeEmoji(realm, emoji);
  sendEmojiEvent(realm, { add: emoji });
  return {};
}

/** emoji.permission: a guest is refused before anything else is looked at. */
function refuseGuests(user: User): void {
  if (user.role === 'guest') throw new JsonError('Not allowed for guest users');
}

/** emoji.permission: the words of the refusal of a user the configuration does not let upload (the spec shows none). */
const notPermittedToUpload = () => new JsonError('Insufficient permission');

/** emoji.name-rules: whether an active emoji's name may be taken again. */
function checkNameFree(realm: Realm, existing: CustomEmoji | undefined): void {
  if (existing) realm.dialect.checkEmojiNameFree(existing);
}

/** emoji.image-bytes: what else Zulip takes as an image (a JPEG, a WebP); anything more is refused. */
function checkOtherImage(realm: Realm, file: UploadedFile): void {
  if (!realm.rules.isOtherImage(file)) throw invalidImageFormat();
}

/** emoji.images-only: an image cut short or with bytes after its end is refused. */
function checkWholeImage(realm: Realm, file: UploadedFile): void {
  if (!realm.rules.isWholeImage(file)) throw invalidImageFormat();
}

/** emoji.images-only; emoji.image-bytes: the refusal of what is not an image. */
const invalidImageFormat = () => new JsonError('Invalid image format', 400, 'BAD_IMAGE');

/** emoji.listing-shape: the active emoji of the name, if any, is deactivated for the new one. */
function replaceEmoji(realm: Realm, existing: CustomEmoji | undefined): void {
  if (!existing) return;
  realm.rules.deactivateEmoji(realm, existing);
  sendEmojiEvent(realm, { remove: existing.name });
}

export function getRealmEmoji({ realm }: Request) {
  return { emoji: realmEmojiDict(realm) };
}

export function deleteEmoji({ realm, user, path }: Request) {
  const name = path.emoji_name!;
  const emoji = realm.dialect.emojiToRemove(activeEmoji(realm, name), name);
  if (!emoji) throw new JsonError(`Emoji '${name}' does not exist`, hasShape(realm.featureLevel, 'missingEmojiNotFound') ? 404 : 400);
  if (!realm.dialect.mayRemoveEmoji(realm, user, emoji)) throw new JsonError('Must be an organization administrator or emoji author');
  realm.rules.deactivateEmoji(realm, emoji);
  sendEmojiEvent(realm, { remove: emoji.name });
  return {};
}

/** The type an image is served with, by its file name's extension. */
const TYPES: Record<string, string> = { png: 'image/png', gif: 'image/gif', jpg: 'image/jpeg', webp: 'image/webp' };

/** GET /user_avatars/1/emoji/images/{file}: the stored image, as Zulip serves uploads (no credentials). */
export function serveEmojiImage({ realm, path }: Request) {
  const id = Number(/^(\d+)\./.exec(path.file!)?.[1]);
  const emoji = realm.emoji.get(id);
  if (!emoji) throw new JsonError('Not Found', 404);
  return { [RAW]: { type: TYPES[extension(emoji.data)] ?? emoji.mimeType, data: emoji.data } };
}
