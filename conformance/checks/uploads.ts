// What uploads of custom emoji need, shared by the emoji checks and the organization model:
// images the suite makes itself, the spec's sameness of names, the organization's listing, and
// who of the profile may upload.

import { crc32, deflateSync } from 'node:zlib';
import type { Role } from '../run/client.js';
import { shaped, succeeded, type Context } from '../run/harness.js';
import { SHAPES } from '../run/shape.js';
import { fetchState } from './world.js';

// ---- Images --------------------------------------------------------------------------------

function pngChunk(type: string, data: Buffer): Buffer[] {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4, 8))), 0);
  return [head, data, crc];
}

/** A PNG of one pixel; with `size`, padded to exactly that many bytes by a private ancillary chunk. */
export function png(size?: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const pixels = deflateSync(Buffer.from([0, 255, 128, 0, 255]));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const fixed = [signature, ...pngChunk('IHDR', header), ...pngChunk('IDAT', pixels), ...pngChunk('IEND', Buffer.alloc(0))];
  const length = fixed.reduce((sum, part) => sum + part.length, 0);
  if (size === undefined) return Buffer.concat(fixed);
  const padding = size - length - 12;
  if (padding < 0) throw new Error(`a PNG cannot be as small as ${size} bytes`);
  // prVt: ancillary, private, safe to ignore; decoders skip it. It goes before IEND.
  return Buffer.concat([...fixed.slice(0, -3), ...pngChunk('prVt', Buffer.alloc(padding, 0x2e)), ...fixed.slice(-3)]);
}

/** A GIF of one pixel. */
export function gif(): Buffer {
  return Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
}

/** A GIF87a of one pixel (no extension block). */
export function gif87(): Buffer {
  return Buffer.from('R0lGODdhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=', 'base64');
}

/** A baseline JPEG of one pixel, from SOI to EOI. */
export function jpeg(): Buffer {
  return Buffer.from(
    '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAACP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AL0AHDFf/9k=',
    'base64',
  );
}

/** A lossy WebP of one pixel: RIFF, its size, WEBP and one VP8 chunk. */
export function webp(): Buffer {
  return Buffer.from('UklGRkAAAABXRUJQVlA4IDQAAAAQAgCdASoBAAEAAMASJaACdLoB+AH6AAPIAP7vPW//dRLO8+I/91Ff/rzAQu4d/660AAAA', 'base64');
}


export interface Listed {
  id: string;
  name: string;
  deactivated: boolean;
  source_url?: string;
  author_id?: number | null;
}

/**
 * The same emoji to the spec: case ignored, underscores as spaces; then surrounding spaces
 * dropped (a reading of its own: Zulip strips them). Underscores first, so that `_x` and ` x`
 * are one name.
 */
export const sameName = (name: string) => name.toLowerCase().replace(/_/g, ' ').trim();

export async function listEmoji(context: Context): Promise<Listed[]> {
  const body = succeeded(await context.call('member', 'GET', '/realm/emoji'), 'GET /realm/emoji', SHAPES.emoji);
  return Object.entries(body.emoji).map(([key, record]) => shaped<Listed>(record, SHAPES.emojiRecord, `GET /realm/emoji: emoji ${key}`));
}

export const activeNamed = (list: readonly Listed[], name: string) => list.filter((emoji) => !emoji.deactivated && sameName(emoji.name) === sameName(name));
export const ourActive = (context: Context, list: readonly Listed[]) => list.filter((emoji) => !emoji.deactivated && emoji.name.toLowerCase().includes(context.prefix));

/**
 * Who of the profile may upload, as /register says: realm_can_add_custom_emoji_group (level 307),
 * or the older policy. `known`: the users the setting places for certain (an older policy of full
 * members or moderators places only administrators).
 */
export function uploaders(context: Context): Promise<{ may: ReadonlySet<Role>; known: ReadonlySet<Role> }> {
  return context.memo('emoji-uploaders', async () => {
    const state = await fetchState(context, 'member', ['realm', 'realm_user_groups']);
    const { users } = context.probe;
    const roles = ['member', 'admin', 'other'] as const;
    const setting = state.realm_can_add_custom_emoji_group;
    const groups = new Map<number, { members: number[]; direct_subgroup_ids?: number[] }>((state.realm_user_groups ?? []).map((group: any) => [group.id, group]));
    const membersOf = (value: any, seen = new Set<number>()): Set<number> => {
      if (typeof value === 'number') {
        if (seen.has(value)) return new Set();
        seen.add(value);
        const group = groups.get(value);
        return new Set([...(group?.members ?? []), ...(group?.direct_subgroup_ids ?? []).flatMap((id) => [...membersOf(id, seen)])]);
      }
      return new Set([...(value?.direct_members ?? []), ...(value?.direct_subgroups ?? []).flatMap((id: number) => [...membersOf(id, seen)])]);
    };
    const all = new Set<Role>(roles);
    if (setting !== undefined) {
      const allowed = membersOf(setting);
      return { may: new Set(roles.filter((role) => allowed.has(users[role].id))), known: all };
    }
    // Older servers: add_custom_emoji_policy 1 means members, 2 administrators; 3 and 4 (full
    // members, moderators) include administrators and place no one else for certain. Before
    // level 85: realm_add_emoji_by_admins_only.
    const policy = state.realm_add_custom_emoji_policy ?? (state.realm_add_emoji_by_admins_only === true ? 2 : 1);
    if (policy === 1) return { may: all, known: all };
    const admins = new Set(roles.filter((role) => users[role].isAdmin));
    return { may: admins, known: policy === 2 ? all : admins };
  });
}

