// IdMap, the flat store of records by ID: the part of Map's behaviour the model relies on.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IdMap } from '../model/model.js';

test('IdMap: set, get, has, delete and size as a Map has them', () => {
  const records = new IdMap<number, { name: string }>();
  const first = { name: 'first' };
  assert.is(records.set(3, first), records);
  records.set(7, { name: 'second' });
  assert.is(records.size, 2);
  assert.is(records.get(3), first);
  assert.ok(records.has(7));
  assert.not.ok(records.has(4));
  assert.is(records.get(4), undefined);
  // A second set of one ID replaces the record and does not count it twice.
  records.set(3, { name: 'replaced' });
  assert.is(records.size, 2);
  assert.is(records.get(3)!.name, 'replaced');
  assert.ok(records.delete(3));
  assert.not.ok(records.delete(3), 'deleting what is gone');
  assert.is(records.size, 1);
  assert.is(records.get(3), undefined);
  records.clear();
  assert.is(records.size, 0);
  assert.equal(records.values(), []);
});

test('IdMap: values, keys and entries in ascending ID order, without the deleted ones', () => {
  const records = new IdMap<number, string>();
  for (const id of [5, 1, 9, 2]) records.set(id, `r${id}`);
  records.delete(9);
  assert.equal(records.values(), ['r1', 'r2', 'r5']);
  assert.equal(records.keys(), [1, 2, 5]);
  assert.equal([...records], [[1, 'r1'], [2, 'r2'], [5, 'r5']]);
  assert.equal([...records.values()].length, records.size);
});

test('IdMap: the sparse IDs of the alternate dialect (a Lehmer sequence) and numbers as records (flag bits, 0 among them)', () => {
  const drafts = new IdMap<number, string>();
  const ids = [48271, 182605794, 1291394886, 1914720637, 2078669041];
  for (const id of ids) drafts.set(id, `d${id}`);
  assert.is(drafts.size, 5);
  assert.equal(drafts.keys(), ids);
  assert.is(drafts.get(1291394886), 'd1291394886');
  drafts.delete(182605794);
  assert.equal(drafts.keys(), [48271, 1291394886, 1914720637, 2078669041]);
  // Past the array's last index, the same.
  drafts.set(2 ** 40, 'far');
  assert.is(drafts.get(2 ** 40), 'far');
  assert.ok(drafts.keys().includes(2 ** 40));
  const flags = new IdMap<number, number>();
  flags.set(8, 0);
  assert.ok(flags.has(8), 'a record of 0 is there');
  assert.is(flags.get(8), 0);
  assert.equal([...flags], [[8, 0]]);
});

test('IdMap: what is not an ID finds nothing, and cannot be stored', () => {
  const records = new IdMap<number, string>();
  records.set(0, 'zero');
  for (const id of [-1, 1.5, Number.NaN, 2 ** 53, Number.POSITIVE_INFINITY]) {
    assert.is(records.get(id), undefined, String(id));
    assert.not.ok(records.has(id), String(id));
    assert.not.ok(records.delete(id), String(id));
    assert.throws(() => records.set(id, 'x'), RangeError, String(id));
  }
  // Array properties are not records.
  assert.is(records.get('length' as unknown as number), undefined);
  assert.is(records.size, 1);
});

test.run();
