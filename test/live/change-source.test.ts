// The in-memory change source on its own: positions increase, reads resume after a position, and the
// retention bound moves the floor (a stream resuming below it gets ChangeStreamHistoryLost).
import { MemoryChangeSource } from '../../src/store/embedded/changes/source.js';

const draft = (i: number) => ({ kind: 'insert' as const, db: 'd', coll: 'c', wallTime: new Date(), size: 100 + i });

test('positions increase and readAfter resumes after a position', () => {
  const source = new MemoryChangeSource({ maxRecords: 100 });
  const start = source.latest();
  source.append([draft(1), draft(2), draft(3)]);
  const all = source.readAfter(start, 10);
  expect(all).toHaveLength(3);
  expect(all[0]!.position < all[1]!.position && all[1]!.position < all[2]!.position).toBe(true);
  expect(source.readAfter(all[0]!.position, 10).map((r) => r.size)).toEqual([102, 103]);
  expect(source.readAfter(all[2]!.position, 10)).toEqual([]);
  expect(source.latest()).toBe(all[2]!.position);
});

test('retention by count and by bytes moves the floor past evicted records', () => {
  const source = new MemoryChangeSource({ maxRecords: 5, maxBytes: 10_000 });
  const floor0 = source.floor();
  source.append(Array.from({ length: 8 }, (_, i) => draft(i)));
  const kept = source.readAfter(floor0, 100);
  expect(kept).toHaveLength(5);
  expect(source.floor()).toBeGreaterThan(floor0);
  expect(source.floor() < kept[0]!.position).toBe(true);

  const small = new MemoryChangeSource({ maxRecords: 1000, maxBytes: 450 });
  small.append(Array.from({ length: 10 }, (_, i) => draft(i)));
  expect(small.readAfter(small.floor(), 100).length).toBeLessThanOrEqual(4);
});

test('listeners hear every append until they unsubscribe', () => {
  const source = new MemoryChangeSource();
  let heard = 0;
  const off = source.onAppend(() => heard++);
  source.append([draft(1)]);
  source.append([]);
  off();
  source.append([draft(2)]);
  expect(heard).toBe(1);
});
