import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { formDecoded } from '../http/handler.js';
import { JsonError, Params, checkIntList, checkStrictDict } from '../model/params.js';

const params = (query: string, body: Record<string, string> = {}) => Params.merge(new URLSearchParams(query), new Map(Object.entries(body)));

function refusal(run: () => unknown): JsonError {
  try {
    run();
  } catch (error) {
    if (error instanceof JsonError) return error;
    throw error;
  }
  throw new assert.Assertion({ message: 'expected a JsonError', operator: 'throws', actual: undefined, expects: 'JsonError' });
}

test('the body wins over the query string', () => {
  assert.is(params('a=query&b=only', { a: 'body' }).string('a'), 'body');
  assert.is(params('a=query&b=only', { a: 'body' }).string('b'), 'only');
});

test('a missing required parameter names itself', () => {
  const error = refusal(() => params('').requiredString('content'));
  assert.is(error.msg, "Missing 'content' argument");
  assert.is(error.code, 'REQUEST_VARIABLE_MISSING');
  assert.equal(error.extra, { var_name: 'content' });
});

test('JSON parameters are typed strictly, with Zulip texts', () => {
  assert.is(refusal(() => params('n="5"').int('n')).msg, 'n is not an integer');
  assert.is(refusal(() => params('n=5.5').int('n')).msg, 'n is not an integer');
  assert.is(refusal(() => params('n=1e400').int('n')).msg, 'n is not an integer');
  assert.is(refusal(() => params('n=123456789012345678901').int('n')).msg, 'n is too large');
  assert.is(refusal(() => params('b=True').bool('b')).msg, 'b is not valid JSON');
  assert.is(refusal(() => params('b=1').bool('b')).msg, 'b is not a boolean');
  assert.is(refusal(() => params('l={}').list('l')).msg, 'l is not a list');
  assert.is(params('n=5').int('n'), 5);
  assert.is(params('b=false').bool('b'), false);
  assert.is(params('n=null').int('n'), undefined);
});

test('nested values report their path', () => {
  assert.is(refusal(() => checkIntList([1, 'x'], 'to')).msg, 'to[1] is not an integer');
  assert.is(refusal(() => checkStrictDict({ a: 1, id: 2 }, 'drafts[0]', ['a'])).msg, 'Argument "id" at drafts[0] is unexpected');
});

test('ignored() lists the names never read, sorted', () => {
  const p = params('zeta=1&alpha=2', { used: '3', beta: '4' });
  p.string('used');
  p.has('zeta');
  assert.equal(p.ignored(), ['alpha', 'beta']);
});

test('an urlencoded name or value decodes as URLSearchParams decodes it, malformed escapes included', () => {
  const piece = fc.array(fc.oneof(fc.constantFrom('%', '+', '=', 'a', 'F', '0', '9', 'é', '😀', ' ', '%2', '%C3', '%A9', '%FF', '%E2%82', '%25', '%2B'), fc.string({ maxLength: 3 })), { maxLength: 12 })
    .map((parts) => parts.join('').replaceAll('&', ''));
  fc.assert(fc.property(piece, (text) => formDecoded(text) === new URLSearchParams(`x=${text}`).get('x')), { numRuns: 2000 });
});

test.run();
