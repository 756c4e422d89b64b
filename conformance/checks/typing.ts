// Checks of typing notifications (spec: receives_typing_notifications, "Events"): from level
// 253 they reach only users who receive them. The run turns the setting off for member and
// puts it back.

import fc from 'fast-check';
import type { Role } from '../run/client.js';
import { check, expect, succeeded, Skip, type Check, type Context } from '../run/harness.js';
import { sameJson } from '../run/shape.js';
import { fetchState, isTyping, pollEvents, registerQueue, runChannel, type Queue } from './world.js';

/** A queue for every event, that also declares it understands channel typing (Zulip sends those only then). */
async function typingQueue(context: Context, as: Role): Promise<Queue> {
  return registerQueue(context, as, null, { stream_typing_notifications: true });
}

/**
 * member's receives_typing_notifications switched off and admin's on for the check; both put back.
 * With `earlier`, a client of member's registers first, while member still receives them: the
 * switch is to apply to it too, not only to clients that register after it.
 */
async function withReceivingOff(context: Context, run: (earlier: Queue | null) => Promise<void>, earlier = false): Promise<void> {
  const original = async (role: 'member' | 'admin') => {
    const state = await fetchState(context, role, ['user_settings']);
    const value = (state.user_settings ?? state).receives_typing_notifications;
    expect(typeof value === 'boolean', `POST /register: no receives_typing_notifications in ${role}'s user_settings`);
    return value as boolean;
  };
  const originals = { member: await original('member'), admin: await original('admin') };
  const restore = (role: 'member' | 'admin') => context.call(role, 'PATCH', '/settings', { receives_typing_notifications: originals[role] });
  for (const role of ['member', 'admin'] as const) {
    context.putBack(`restore ${role}'s receives_typing_notifications=${originals[role]}`, { as: role, method: 'PATCH', path: '/settings', params: { receives_typing_notifications: originals[role] } });
  }
  let registered: Queue | null = null;
  if (earlier) {
    succeeded(await context.call('member', 'PATCH', '/settings', { receives_typing_notifications: true }), 'PATCH /settings receives_typing_notifications=true');
    registered = await typingQueue(context, 'member');
  }
  succeeded(await context.call('member', 'PATCH', '/settings', { receives_typing_notifications: false }), 'PATCH /settings receives_typing_notifications=false');
  succeeded(await context.call('admin', 'PATCH', '/settings', { receives_typing_notifications: true }), 'PATCH /settings receives_typing_notifications=true (admin)');
  try {
    await run(registered);
  } finally {
    await registered?.remove();
    await restore('member');
    await restore('admin');
  }
}

/** A channel's typing notification names it by stream_id from Zulip's level 215, as the one ID of `to` before. */
const channelTyping = (context: Context, id: number) => (context.level >= 215 ? { type: 'stream', stream_id: id } : { type: 'stream', to: [id] });

const mustChecks: Check[] = [
  check('typing.only-to-receivers', async (context) => {
    const { users } = context.probe;
    const channel = await runChannel(context, ['member', 'other', 'admin']);
    const kinds = ['direct', 'channel'] as const;
    const ops = ['start', 'stop'] as const;
    // Every kind with every op: the whole of what the rule can be asked (a smoke run: each kind once).
    const every = kinds.flatMap((kind) => ops.map((op) => fc.constant([kind, op] as [typeof kind, typeof op])));
    await withReceivingOff(context, (earlier) => context.property(fc.tuple(fc.constantFrom(...kinds), fc.constantFrom(...ops)), async ([kind, op]) => {
      const member = await typingQueue(context, 'member');
      const admin = await typingQueue(context, 'admin');
      try {
        const params = kind === 'direct'
          ? { op, to: [users.member.id, users.admin.id] }
          : { op, ...channelTyping(context, channel.id), topic: `${context.prefix} typing` };
        succeeded(await context.call('other', 'POST', '/typing', params), `POST /typing ${JSON.stringify(params)}`);
        // admin receives typing notifications: seeing it get one shows that member's queue could have.
        const control = await pollEvents(context, 'admin', admin, (seen) => seen.some(isTyping));
        if (!control.some(isTyping)) throw new Skip(`a ${kind} typing notification did not reach a recipient who receives them (admin), so its absence at member proves nothing`);
        // Sent together with admin's, member's would be there by now: a short look more is enough.
        // At a client registered after the switch, and at one registered before it.
        for (const [queue, when] of [[member, 'after'], [earlier!, 'before']] as const) {
          const seen = (await pollEvents(context, 'member', queue, () => false, Math.min(context.options.eventWaitMs, 100))).filter(isTyping);
          expect(seen.length === 0, `member turned receives_typing_notifications off, yet a client of member's registered ${when} the switch got a ${kind} typing notification: ${JSON.stringify(seen)}`);
        }
      } finally {
        await member.remove();
        await admin.remove();
      }
    }, { boundaries: context.options.smoke ? kinds.map((kind, index) => fc.constant([kind, ops[(context.options.seed + index) % 2]!] as [typeof kind, (typeof ops)[number]])) : every, exhaustive: true }), true);
    // A typing notification names no run: another run's, between the same users, looks the same.
  }, ['events'], ['profile users\' settings', 'typing among the profile users']),
  check('typing.reaches-receivers', async (context) => {
    const { users } = context.probe;
    // Event names and payloads are not shown: what a typing notification brings is any event but a heartbeat.
    const brought = (event: any) => event.type !== 'heartbeat';
    const ops = ['start', 'stop'] as const;
    await withReceivingOff(context, () => context.property(fc.constantFrom(...ops), async (op) => {
      const admin = await typingQueue(context, 'admin');
      try {
        const params = { op, to: [users.member.id, users.admin.id] };
        succeeded(await context.call('other', 'POST', '/typing', params), `POST /typing ${JSON.stringify(params)}`);
        const seen = await pollEvents(context, 'admin', admin, (events) => events.some(brought));
        expect(seen.some(brought), `admin receives typing notifications (receives_typing_notifications on), yet a direct typing notification (op ${op}) from other brought admin no event`);
      } finally {
        await admin.remove();
      }
      // A smoke run: one op, the other at another seed.
    }, { boundaries: context.some(ops).map((op) => fc.constant(op)), exhaustive: true }));
  }, ['events'], ['profile users\' settings', 'typing among the profile users']),
];

const decisionChecks: Check[] = [
  check('typing.event-shape', async (context) => {
    const { users } = context.probe;
    const channel = await runChannel(context, ['member', 'other', 'admin']);
    const declared = await typingQueue(context, 'member');
    const plain = await registerQueue(context, 'admin', ['typing']);
    try {
      succeeded(await context.call('other', 'POST', '/typing', { op: 'start', to: [users.member.id, users.admin.id] }), 'POST /typing direct');
      const [direct] = (await pollEvents(context, 'member', declared, (seen) => seen.some(isTyping))).filter(isTyping);
      const person = (role: Role) => ({ user_id: users[role].id, email: users[role].email });
      const expected = {
        type: 'typing', op: 'start', message_type: context.level >= 215 ? 'direct' : 'private', sender: person('other'),
        recipients: (['member', 'other', 'admin'] as const).map(person).sort((a, b) => a.user_id - b.user_id),
      };
      const { id: _id, ...shown } = direct ?? {};
      if (Array.isArray(shown.recipients)) shown.recipients.sort((a: any, b: any) => a.user_id - b.user_id);
      expect(sameJson(shown, expected), `the direct typing event is ${JSON.stringify(direct)}; expected ${JSON.stringify(expected)}`);
      await pollEvents(context, 'admin', plain, () => false, 100);
      // Typing in a channel is Zulip's from level 58.
      if (context.level < 58) return;
      succeeded(await context.call('other', 'POST', '/typing', { op: 'stop', ...channelTyping(context, channel.id), topic: 'shape' }), 'POST /typing channel');
      const [inChannel] = (await pollEvents(context, 'member', declared, (seen) => seen.some(isTyping))).filter(isTyping);
      expect(inChannel?.message_type === 'stream' && inChannel.stream_id === channel.id && inChannel.topic === 'shape' && inChannel.op === 'stop' && inChannel.sender?.user_id === users.other.id,
        `the channel typing event is ${JSON.stringify(inChannel)}`);
      const undeclared = (await pollEvents(context, 'admin', plain, () => false, 200)).filter((event) => event.message_type === 'stream');
      expect(undeclared.length === 0, `a queue that did not declare stream_typing_notifications got ${JSON.stringify(undeclared)}`);
    } finally {
      await declared.remove();
      await plain.remove();
    }
  }, ['events'], ['typing among the profile users']),
];

export const TYPING_CHECKS: readonly Check[] = [...mustChecks, ...decisionChecks];
