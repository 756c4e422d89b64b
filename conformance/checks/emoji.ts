// Checks of custom emoji (spec "Endpoints 8. Upload custom emoji", "Limits"), with images the
// suite makes itself. The run's emoji carry its prefix and are removed at the end.

import fc from 'fast-check';
import { TransientError, type FilePart, type ParamList, type Response, type Role } from '../run/client.js';
import { check, expect, NotConfigured, refused, refusedExactly, succeeded, Skip, type Check, type Context } from '../run/harness.js';
import { PREFIX_FORM } from '../run/sweep.js';
import { activeNamed, gif, gif87, jpeg, listEmoji, ourActive, png, uploaders, webp } from './uploads.js';
import { pollEvents, registerQueue, type SpecOperation } from './world.js';

const MIB = 1024 * 1024;

const filePart = (data: Buffer, type: string, filename = 'emoji'): FilePart => ({ file: true, filename, type, data });

// ---- The run's uploads -------------------------------------------------------------------------

/** The user of the profile who uploads: the member if it may, else the administrator; null if neither may. */
async function uploader(context: Context): Promise<Role | null> {
  const { may } = await uploaders(context);
  return may.has('member') ? 'member' : may.has('admin') ? 'admin' : null;
}

async function whoUploads(context: Context): Promise<Role> {
  const role = await uploader(context);
  if (role === null) throw new Skip('no user of the profile may upload custom emoji (realm_can_add_custom_emoji_group)');
  return role;
}

const emojiPath = (name: string) => `/realm/emoji/${encodeURIComponent(name)}`;

const emojiName = (context: Context) => `${context.prefix}e${context.serial('emoji')}`;

/**
 * Whether an emoji carries another run's token and not this run's: another run's upload, made
 * meanwhile against the same server, is not this upload's doing.
 */
function anotherRuns(context: Context, name: string): boolean {
  const plain = name.toLowerCase();
  const tokens: string[] = plain.match(new RegExp(PREFIX_FORM.source, 'g')) ?? [];
  return tokens.length > 0 && !tokens.includes(context.prefix) && !plain.replace(/[^a-z0-9]/g, '').includes(context.prefix);
}

/** `repeatable`: the upload must be refused, so it may be sent again after a transient fault. */
async function upload(context: Context, as: Role, name: string, params: ParamList, multipart = true, repeatable = false) {
  const before = await listEmoji(context);
  const response = await context.call(as, 'POST', emojiPath(name), params, { multipart, repeatable }).catch(async (error: unknown) => {
    // The answer was lost, not the request: what it stored is found by the state and removed.
    if (error instanceof TransientError) await removeEmoji(context, (await listEmoji(context)).filter((emoji) => !emoji.deactivated && !before.some((old) => old.id === emoji.id && !old.deactivated) && !anotherRuns(context, String(emoji.name))).map((emoji) => String(emoji.name))).catch(() => undefined);
    throw error;
  });
  const after = await listEmoji(context);
  const made = after.filter((emoji) => !emoji.deactivated && !before.some((old) => old.id === emoji.id && !old.deactivated) && !anotherRuns(context, String(emoji.name)));
  return { response, before, after, made };
}

async function removeEmoji(context: Context, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await context.cleanup.now(`remove emoji ${name}`, async () => {
      const response = await context.call('admin', 'DELETE', emojiPath(name));
      if (response.body?.result === 'success') context.cleanup.leftBehind(`custom emoji, deactivated (named with ${context.prefix}; GET /realm/emoji lists them with deactivated: true)`);
    });
  }
}

/** The upload must be refused and leave the organization's active emoji as they were; returns the refusal, for its words. */
async function refusedStoringNothing(context: Context, as: Role, name: string, params: ParamList, what: string, multipart = true) {
  const { response, made } = await upload(context, as, name, params, multipart, true);
  await removeEmoji(context, made.map((emoji) => emoji.name));
  expect(made.length === 0, `${what} was answered ${response.status} ${response.text.slice(0, 200)}, yet it stored ${JSON.stringify(made)}`);
  refused(response, what);
  return response;
}

/** An image the spec names (image or gif): a PNG, or a GIF in either of its versions. */
const image = fc.constantFrom<['png' | 'gif', () => Buffer]>(['png', () => png()], ['gif', gif], ['gif', gif87]);

// ---- Checks of what the spec states ---------------------------------------------------------

const mustChecks: Check[] = [
  check('emoji.upload-stores', async (context) => {
    const as = await whoUploads(context);
    // Uploads under distinct names, each kept until the last is made: an emoji is identified by its name.
    await context.property(fc.array(image, { minLength: 1, maxLength: 3 }), async (images) => {
      const requested: string[] = [];
      const stored: string[] = [];
      try {
        for (const [kind, make] of images) {
          const name = emojiName(context);
          const { response, after } = await upload(context, as, name, { file: filePart(make(), `image/${kind}`, `emoji.${kind}`) });
          stored.push(...activeNamed(after, name).map((emoji) => emoji.name));
          succeeded(response, `upload of a ${kind} as ${name}${requested.length > 0 ? ` while ${requested.join(', ')} exist` : ''}`);
          requested.push(name);
        }
        const listed = await listEmoji(context);
        const wrong = requested.filter((name) => activeNamed(listed, name).length !== 1);
        expect(wrong.length === 0, `after uploads named ${requested.join(', ')}, GET /realm/emoji lists ${JSON.stringify(ourActive(context, listed))}: not one active emoji of each name`);
      } finally {
        await removeEmoji(context, stored);
      }
    }, { runs: context.runsSmokeAtMost(4), boundaries: [fc.constant([['png', () => png()], ['gif', gif], ['gif', gif87]] as Array<['png' | 'gif', () => Buffer]>)] });
  }),

  check('emoji.upload-access', async (context) => {
    const { may, known } = await uploaders(context);
    const leftOut = [...known].filter((role) => !may.has(role));
    if (leftOut.length === 0) throw new NotConfigured('the organization lets every user of the profile upload custom emoji (realm_can_add_custom_emoji_group): no refusal to observe');
    for (const role of leftOut) {
      await refusedStoringNothing(context, role, emojiName(context), { file: filePart(png(), 'image/png') }, `an upload by '${role}', whom the organization does not let upload`);
    }
  }),

  check('emoji.name-characters', async (context) => {
    const as = await whoUploads(context);
    // An empty name makes another URL (/realm/emoji/), which a server may answer as it answers
    // any unknown path: any answer but a success that stores nothing keeps the rule.
    const empty = await upload(context, as, '', { file: filePart(png(), 'image/png') }, true, true);
    await removeEmoji(context, empty.made.map((emoji) => emoji.name));
    expect(empty.made.length === 0 && empty.response.body?.result !== 'success', `an upload with an empty name was answered ${empty.response.status} ${empty.response.text.slice(0, 200)} and stored ${JSON.stringify(empty.made)}`);
    const characters = ['*', '.', '!', '@', '+', '#', '%', '~', '(', ':', ',', '?', '&', '=', '$', "'", '"', '€', '😀', '\u00a0', '\t'];
    // The boundaries: every one of them, each in a name of its own, all looked at in one listing.
    const before = await listEmoji(context);
    const tried: Array<[string, Response]> = [];
    for (const character of characters) {
      const base = emojiName(context);
      const name = `${base.slice(0, 2)}${character}${base.slice(2)}`;
      tried.push([name, await context.call(as, 'POST', emojiPath(name), { file: filePart(png(), 'image/png') }, { multipart: true, repeatable: true })]);
    }
    const made = (await listEmoji(context)).filter((emoji) => !emoji.deactivated && !before.some((old) => old.id === emoji.id && !old.deactivated) && !anotherRuns(context, String(emoji.name)));
    await removeEmoji(context, made.map((emoji) => emoji.name));
    expect(made.length === 0, `uploads named with characters outside the spec's alphabet stored ${JSON.stringify(made.map((emoji) => emoji.name))}`);
    for (const [name, response] of tried) refused(response, `an upload named ${JSON.stringify(name)}`);
    // Then, outside a smoke run, each at a generated place in a name.
    if (context.options.smoke) return;
    const forbidden = fc.constantFrom(...characters);
    await context.property(fc.tuple(forbidden, fc.nat()), async ([character, at]) => {
      const base = emojiName(context);
      // Inside the name: surrounding white space is a reading of its own (Zulip strips it).
      const cut = 1 + (at % (base.length - 1));
      const name = base.slice(0, cut) + character + base.slice(cut);
      await refusedStoringNothing(context, as, name, { file: filePart(png(), 'image/png') }, `an upload named ${JSON.stringify(name)}`);
    }, context.runsSmokeAtMost(12));
  }),

  check('emoji.name-alphabet', async (context) => {
    const as = await whoUploads(context);
    const part = fc.stringMatching(/^[A-Za-z0-9 _-]{0,6}$/);
    // The boundaries: each kind of character the spec allows, before and after the token.
    const boundaries = ['A', '7', '-', ' ', '_'].map((character) => fc.constant([`${character}b`, `c${character}`] as [string, string]));
    await context.property(fc.tuple(part, part), async ([head, tail]) => {
      const name = `${head}${context.prefix}x${context.serial('emoji')}${tail}`;
      const { response, after } = await upload(context, as, name, { file: filePart(png(), 'image/png') });
      try {
        succeeded(response, `an upload named ${JSON.stringify(name)}`);
        expect(activeNamed(after, name).length === 1, `after the upload of ${JSON.stringify(name)}, GET /realm/emoji lists ${JSON.stringify(activeNamed(after, name))}`);
      } finally {
        await removeEmoji(context, activeNamed(after, name).map((emoji) => emoji.name));
      }
    }, { runs: context.runsSmokeAtMost(10), boundaries });
  }),

  check('emoji.name-case-ignored', async (context) => {
    const as = await whoUploads(context);
    await context.property(fc.array(fc.boolean(), { minLength: 4, maxLength: 16 }), async (upper) => {
      const name = emojiName(context);
      const other = [...name].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join('');
      const recased = other === name ? name.toUpperCase() : other;
      await sameEmojiTwice(context, as, name, recased);
    }, context.runsSmokeAtMost(4));
  }),

  check('emoji.underscores-are-spaces', async (context) => {
    const as = await whoUploads(context);
    await context.property(fc.boolean(), async (spacesFirst) => {
      const base = `${emojiName(context)} a b`;
      const [first, second] = spacesFirst ? [base, base.replace(/ /g, '_')] : [base.replace(/ /g, '_'), base];
      await sameEmojiTwice(context, as, first, second);
    }, context.runsSmokeAtMost(4));
  }),

  check('emoji.one-file-part', async (context) => {
    const as = await whoUploads(context);
    const cases: Array<[string, ParamList, boolean]> = [
      ['no file part', { note: 'no file' }, true],
      ['two file parts', { one: filePart(png(), 'image/png'), two: filePart(gif(), 'image/gif') }, true],
      ['a body that is not multipart', { file: 'iVBORw0KGgo=' }, false],
    ];
    for (const [what, params, multipart] of cases) await refusedStoringNothing(context, as, emojiName(context), params, `an upload with ${what}`, multipart);
  }),

  check('emoji.images-only', async (context) => {
    const as = await whoUploads(context);
    const notImages = fc.oneof(
      fc.constant(Buffer.from('this is not an image, whatever it says\n')),
      fc.nat().map((at) => png().subarray(0, 8 + (at % (png().length - 9)))),
      fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes)).filter((bytes) => bytes[0] !== 0x89 && bytes[0] !== 0x47 && bytes[0] !== 0xff && bytes[0] !== 0x52),
    );
    await context.property(fc.tuple(notImages, fc.constantFrom('image/png', 'image/gif', 'image/jpeg')), async ([bytes, type]) => {
      await refusedStoringNothing(context, as, emojiName(context), { file: filePart(bytes, type) }, `an upload of ${bytes.length} bytes that are no image, declared ${type}`);
    }, context.runsSmokeAtMost(8));
  }),

  check('emoji.size-limit', async (context) => {
    const as = await whoUploads(context);
    const { mib } = context.probe.emojiLimit;
    const name = emojiName(context);
    const { response, after } = await upload(context, as, name, { file: filePart(png(mib * MIB), 'image/png') });
    try {
      succeeded(response, `an upload of exactly ${mib} MiB`);
      expect(activeNamed(after, name).length === 1, `an upload of exactly ${mib} MiB succeeded, but GET /realm/emoji lists ${JSON.stringify(activeNamed(after, name))}`);
    } finally {
      await removeEmoji(context, activeNamed(after, name).map((emoji) => emoji.name));
    }
    await refusedStoringNothing(context, as, emojiName(context), { file: filePart(png(mib * MIB + 1), 'image/png') }, `an upload of ${mib} MiB and one byte`);
  }),
];

/**
 * Uploads under `first`, then under `second`, a name the spec makes the same: no second active
 * emoji. A refusal of the second upload shows the same emoji only if `second` is a name the
 * server takes on its own: then it is uploaded alone, and must be accepted.
 */
async function sameEmojiTwice(context: Context, as: Role, first: string, second: string) {
  const made: string[] = [];
  try {
    const one = await upload(context, as, first, { file: filePart(png(), 'image/png') });
    made.push(...one.made.map((emoji) => emoji.name));
    succeeded(one.response, `an upload named ${JSON.stringify(first)}`);
    const two = await upload(context, as, second, { file: filePart(gif(), 'image/gif') });
    made.push(...two.made.map((emoji) => emoji.name));
    const active = activeNamed(two.after, first);
    expect(active.length === 1, `after uploads named ${JSON.stringify(first)} and ${JSON.stringify(second)} (answered ${two.response.status}), ${active.length} active emoji have that name: ${JSON.stringify(active)}`);
    if (two.response.body?.result === 'success') return;
    await removeEmoji(context, made.splice(0));
    const alone = await upload(context, as, second, { file: filePart(gif(), 'image/gif') });
    made.push(...alone.made.map((emoji) => emoji.name));
    succeeded(alone.response, `the upload named ${JSON.stringify(second)} was refused while ${JSON.stringify(first)} existed; alone, that name`);
  } finally {
    await removeEmoji(context, made);
  }
}

// ---- Checks of the decisions ---------------------------------------------------------------

const decisionChecks: Check[] = [
  check('emoji.name-rules', async (context) => {
    const name = emojiName(context);
    const { response, made } = await upload(context, 'member', ` ${name} Smile `, { file: filePart(png(), 'image/png') });
    try {
      succeeded(response, 'an upload with surrounding spaces and upper case');
      expect(made[0]?.name === `${name}_smile`, `stored as ${JSON.stringify(made[0]?.name)}, not ${name}_smile`);
      refusedExactly((await upload(context, 'member', `${name}_smile`, { file: filePart(png(), 'image/png') })).response, 'a name in use', 'A custom emoji with this name already exists.');
      refusedExactly(await refusedStoringNothing(context, 'member', `${name}*`, { file: filePart(png(), 'image/png') }, 'a name with *'), 'a name with *', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
      refusedExactly(await refusedStoringNothing(context, 'member', ' ', { file: filePart(png(), 'image/png') }, 'a name of one space'), 'a name of one space', 'Emoji name is missing');
    } finally {
      await removeEmoji(context, made.map((emoji) => emoji.name));
    }
    const again = await upload(context, 'member', `${name}_smile`, { file: filePart(png(), 'image/png') });
    await removeEmoji(context, again.made.map((emoji) => emoji.name));
    succeeded(again.response, 'an upload under the name of a removed emoji');
  }),

  check('emoji.permission', async (context) => {
    expect(await uploader(context) === 'member', 'members may not upload custom emoji on the target (realm_can_add_custom_emoji_group)');
    const name = emojiName(context);
    const { made } = await upload(context, 'admin', name, { file: filePart(png(), 'image/png') });
    try {
      refusedExactly(await context.call('other', 'DELETE', emojiPath(name)), 'another member removing an administrator\'s emoji', 'Must be an organization administrator or emoji author');
    } finally {
      await removeEmoji(context, made.map((emoji) => emoji.name));
    }
  }),

  check('emoji.image-bytes', async (context) => {
    const pngChunks = (data: Buffer) => {
      const chunks: Buffer[] = [];
      for (let at = 8; at < data.length; at += 12 + data.readUInt32BE(at)) chunks.push(data.subarray(at, at + 12 + data.readUInt32BE(at)));
      return chunks;
    };
    const [ihdr, idat, iend] = pngChunks(png());
    const damagedCrc = png();
    damagedCrc[8 + 8 + 13] ^= 0xff;
    const riff = (kind: string, body: Buffer) => {
      const head = Buffer.alloc(12);
      head.write('RIFF', 0, 'latin1');
      head.writeUInt32LE(4 + body.length, 4);
      head.write(kind, 8, 'latin1');
      return Buffer.concat([head, body]);
    };
    const withHead = (data: Buffer, head: string) => Buffer.concat([Buffer.from(head, 'latin1'), data.subarray(head.length)]);
    const images: Array<[string, Buffer, string, string, string]> = [
      // what, bytes, declared type, served type, extension
      ['a PNG declared application/octet-stream', png(), 'application/octet-stream', 'image/png', 'png'],
      ['a GIF89a', gif(), 'image/gif', 'image/gif', 'gif'],
      ['a GIF87a', gif87(), 'image/gif', 'image/gif', 'gif'],
      ['a JPEG', jpeg(), 'image/jpeg', 'image/jpeg', 'jpg'],
      ['a WebP', webp(), 'image/webp', 'image/webp', 'webp'],
    ];
    for (const [what, data, declared, type, extension] of images) {
      const name = emojiName(context);
      const { response, made } = await upload(context, 'member', name, { file: filePart(data, declared) });
      try {
        succeeded(response, what);
        const url = made[0]?.source_url ?? '';
        expect(new URL(url, context.client.baseUrl).pathname.endsWith(`.${extension}`), `${what} is listed with the source_url ${JSON.stringify(url)}, not one ending in .${extension}`);
        const served = await fetch(new URL(url, context.client.baseUrl));
        const bytes = Buffer.from(await served.arrayBuffer());
        expect(served.status === 200 && served.headers.get('content-type')?.split(';')[0] === type && bytes.subarray(0, 3).equals(data.subarray(0, 3)),
          `${what}: GET ${url} answered ${served.status} ${served.headers.get('content-type')} starting ${bytes.subarray(0, 4).toString('hex')}, not ${type}`);
      } finally {
        await removeEmoji(context, made.map((emoji) => emoji.name));
      }
    }
    const notWhole: Array<[string, Buffer, string]> = [
      ['text declared image/png', Buffer.from('text'), 'image/png'],
      ['a PNG whose first chunk is not IHDR', Buffer.concat([png().subarray(0, 8), idat!, ihdr!, iend!]), 'image/png'],
      ['a PNG with a damaged CRC', damagedCrc, 'image/png'],
      ['a PNG followed by more bytes', Buffer.concat([png(), Buffer.from('more')]), 'image/png'],
      ['a GIF without its trailer', gif().subarray(0, -1), 'image/gif'],
      ['a GIF header and screen descriptor alone', Buffer.concat([gif().subarray(0, 12), Buffer.from([0x3b])]), 'image/gif'],
      ['a JPEG without its end marker', jpeg().subarray(0, -2), 'image/jpeg'],
      ['a JPEG whose end marker lost its first byte', Buffer.concat([jpeg().subarray(0, -2), Buffer.from([0xd9])]), 'image/jpeg'],
      ['a JPEG whose end marker is FF 00', Buffer.concat([jpeg().subarray(0, -1), Buffer.from([0x00])]), 'image/jpeg'],
      ['a JPEG start and end marker alone', Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'image/jpeg'],
      ...[0, 1, 2].map((at): [string, Buffer, string] => {
        const damaged = jpeg();
        damaged[at] ^= 0xff;
        return [`a JPEG whose byte ${at} of its start is damaged`, damaged, 'image/jpeg'];
      }),
      ['a WebP cut short', webp().subarray(0, -4), 'image/webp'],
      ['a RIFF WAVE file', riff('WAVE', Buffer.from('fmt \0\0\0\0', 'latin1')), 'image/webp'],
      ['a WebP that does not begin with RIFF', withHead(webp(), 'RIFX'), 'image/webp'],
    ];
    const refusedAs = async (params: ParamList, what: string, msg: string, code = 'BAD_REQUEST') =>
      refusedExactly(await refusedStoringNothing(context, 'member', emojiName(context), params, what), what, msg, 400, code);
    for (const [what, data, declared] of notWhole) await refusedAs({ file: filePart(data, declared) }, what, 'Invalid image format', 'BAD_IMAGE');
    const { mib } = context.probe.emojiLimit;
    await refusedAs({ file: filePart(png(mib * MIB + 1), 'image/png') }, 'a file over the limit', `Uploaded file is larger than the allowed limit of ${mib} MiB`);
    await refusedAs({ note: 'no file' }, 'an upload with no file part', 'You must upload exactly one file.');
    await refusedAs({ one: filePart(png(), 'image/png'), two: filePart(gif(), 'image/gif') }, 'an upload with two file parts', 'You must upload exactly one file.');
  }),

  check('emoji.listing-shape', async (context) => {
    const queue = await registerQueue(context, 'other', ['realm_emoji']);
    const name = emojiName(context);
    try {
      const data = png();
      const { made } = await upload(context, 'member', name, { file: filePart(data, 'image/png') });
      const [emoji] = made;
      expect(emoji && JSON.stringify(Object.keys(emoji).sort()) === JSON.stringify(['author_id', 'deactivated', 'id', 'name', 'source_url', 'still_url']) && emoji.author_id === context.probe.users.member.id && (emoji as any).still_url === null,
        `the new emoji is listed as ${JSON.stringify(emoji)}`);
      const served = await fetch(new URL(emoji!.source_url!, context.client.baseUrl));
      expect(served.status === 200 && Buffer.from(await served.arrayBuffer()).length > 0, `GET ${emoji!.source_url} answered ${served.status}`);
      const elsewhere = new URL(emoji!.source_url!, context.client.baseUrl);
      elsewhere.pathname = elsewhere.pathname.replace(/[^/]*$/, (file) => `x${file}`);
      const none = await fetch(elsewhere);
      await none.arrayBuffer();
      expect(none.status === 404, `GET ${elsewhere.pathname}, the name of no emoji's image, answered ${none.status}`);
      // The first event that lists this emoji: another run's uploads send events too, each with the whole list.
      const mine = (event: any) => event?.realm_emoji?.[emoji!.id] !== undefined;
      const [event] = (await pollEvents(context, 'other', queue, (seen) => seen.some(mine))).filter(mine);
      expect(event?.type === 'realm_emoji' && event.op === 'update' && event.realm_emoji?.[emoji!.id]?.name === name, `the event is ${JSON.stringify(event).slice(0, 300)}`);
      await removeEmoji(context, [emoji!.name]);
      const kept = (await listEmoji(context)).find((candidate) => candidate.id === emoji!.id);
      expect(kept?.deactivated === true, `a removed emoji is listed as ${JSON.stringify(kept)}, not deactivated`);
      // Before level 190 Zulip answered a missing emoji's removal with HTTP 400.
      refusedExactly(await context.call('admin', 'DELETE', emojiPath(emoji!.name)), 'removing an emoji already removed', `Emoji '${emoji!.name}' does not exist`, context.level >= 190 ? 404 : 400);
    } finally {
      await queue.remove();
    }
  }, ['events']),
];

export const EMOJI_CHECKS: readonly Check[] = [...mustChecks, ...decisionChecks];

export const EMOJI_OPERATIONS: readonly SpecOperation[] = [
  {
    name: 'POST /realm/emoji/{emoji_name}', since: 1, as: 'admin',
    async prepare(context) {
      const name = emojiName(context);
      return {
        method: 'POST', path: emojiPath(name),
        valid: { file: filePart(png(), 'image/png', 'emoji.png') },
        invalid: { path: emojiPath(`${name}*`), params: { file: filePart(png(), 'image/png', 'emoji.png') } },
        observe: async () => JSON.stringify(ourActive(context, await listEmoji(context)).map((emoji) => emoji.name).sort()),
        undo: async () => removeEmoji(context, activeNamed(await listEmoji(context), name).map((emoji) => emoji.name)),
      };
    },
  },
];
