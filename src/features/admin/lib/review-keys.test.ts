import { describe, expect, it } from 'vitest';
import {
  currentId,
  decidedMeanwhileOf,
  digitIndex,
  initialQueue,
  move,
  relativeTime,
  removeIds,
  syncQueue,
  targets,
  toggleSelected,
} from './review-keys.ts';

describe('review queue keys', () => {
  it('j/k move within the ends; x toggles; the selection is what Shift+A/R act on, else the current item', () => {
    let s = initialQueue([10, 20, 30]);
    s = move(s, -1);
    expect(currentId(s)).toBe(10);
    s = move(move(move(s, 1), 1), 1);
    expect(currentId(s)).toBe(30);
    expect(targets(s)).toEqual([30]);
    s = toggleSelected(s);
    s = move(s, -2);
    s = toggleSelected(s);
    expect(targets(s)).toEqual([10, 30]);
    s = toggleSelected(s);
    expect(targets(s)).toEqual([30]);
  });

  it('a decided item leaves: the next becomes current, selections of gone items drop', () => {
    let s = toggleSelected(move(initialQueue([1, 2, 3, 4]), 1));
    expect(currentId(s)).toBe(2);
    s = removeIds(s, [2]);
    expect(currentId(s)).toBe(3);
    expect(s.selected.size).toBe(0);
    s = removeIds(move(s, 5), [4]);
    expect(currentId(s)).toBe(3);
    s = removeIds(s, [1, 3]);
    expect(currentId(s)).toBeUndefined();
    expect(targets(s)).toEqual([]);
    expect(move(s, 1)).toBe(s);
  });

  it('a refetch keeps the current item where it is now', () => {
    const s = syncQueue(move(initialQueue([1, 2, 3]), 2), [5, 3, 1]);
    expect(currentId(s)).toBe(3);
    expect(currentId(syncQueue(move(initialQueue([1, 2, 3]), 2), [1, 2]))).toBe(2);
  });

  it('digits 1–9 pick a rule; other keys and digits past the rules do not', () => {
    expect(digitIndex('1', 9)).toBe(0);
    expect(digitIndex('9', 9)).toBe(8);
    expect(digitIndex('9', 4)).toBeNull();
    expect(digitIndex('0', 9)).toBeNull();
    expect(digitIndex('a', 9)).toBeNull();
    expect(digitIndex('12', 9)).toBeNull();
  });

  it('reads a decided-meanwhile 409 and nothing else', () => {
    const data = { decided_meanwhile: true, decided_by: { id: 3, name: 'Ana' }, decided_at: '2026-11-29T07:00:00.000Z', action: 'approve' };
    expect(decidedMeanwhileOf(data)).toEqual(data);
    expect(decidedMeanwhileOf(undefined)).toBeNull();
    expect(decidedMeanwhileOf({ decided_by: 'Ana' })).toBeNull();
  });

  it('says how long ago in the four languages', () => {
    const now = Date.parse('2026-11-29T07:01:10.000Z');
    const at = '2026-11-29T07:00:00.000Z';
    expect(relativeTime(at, 'es', now)).toBe('hace 1 min');
    expect(relativeTime(at, 'en', now)).toMatch(/^1 min\.? ago$/);
    expect(relativeTime(at, 'de', now)).toMatch(/^vor 1 Min\.?$/);
    expect(relativeTime(at, 'pt_BR', now)).toMatch(/^há 1 min\.?$/);
    expect(relativeTime('2026-11-29T07:01:00.000Z', 'es', now)).toMatch(/^hace 10 s/);
    expect(relativeTime('2026-11-29T05:00:00.000Z', 'es', now)).toMatch(/^hace 2 h/);
    // The same second: «ahora», not «hace 0 s».
    expect(relativeTime('2026-11-29T07:01:10.000Z', 'es', now)).toBe('ahora');
    expect(relativeTime('2026-11-29T07:01:10.000Z', 'en', now)).toBe('now');
  });
});
