/**
 * The keyboard review queue's state (issue 29 point 4), kept pure so the key handling is tested without a browser:
 * which item is current, which are selected, which left the queue (decided here, or by a colleague meanwhile).
 */
import { decidedMeanwhileSchema, type DecidedMeanwhile } from '#contract/admin.ts';

export interface QueueState {
  /** The items still to decide, in the queue's order (risk, then waiting time). */
  ids: number[];
  /** Index into `ids` of the current item. */
  active: number;
  selected: ReadonlySet<number>;
}

export const initialQueue = (ids: number[]): QueueState => ({ ids, active: 0, selected: new Set() });

/** The server's list changed (a refetch): keep the current item where it still is, drop selections that left. */
export function syncQueue(state: QueueState, ids: number[]): QueueState {
  const current = state.ids[state.active];
  const at = current === undefined ? -1 : ids.indexOf(current);
  const active = at >= 0 ? at : Math.min(state.active, Math.max(ids.length - 1, 0));
  return { ids, active, selected: new Set([...state.selected].filter((id) => ids.includes(id))) };
}

/** j (+1) / k (−1): stops at the ends rather than wrapping, so a reviewer never jumps back to the top unawares. */
export function move(state: QueueState, delta: number): QueueState {
  if (!state.ids.length) return state;
  return { ...state, active: Math.min(Math.max(state.active + delta, 0), state.ids.length - 1) };
}

/** x: the current item in or out of the selection. */
export function toggleSelected(state: QueueState): QueueState {
  const id = state.ids[state.active];
  if (id === undefined) return state;
  const selected = new Set(state.selected);
  if (selected.has(id)) selected.delete(id);
  else selected.add(id);
  return { ...state, selected };
}

/** Items leave the queue (decided, or skipped because decided meanwhile): the next one becomes current. */
export function removeIds(state: QueueState, gone: readonly number[]): QueueState {
  const current = state.ids[state.active];
  const ids = state.ids.filter((id) => !gone.includes(id));
  let active = current !== undefined && !gone.includes(current) ? ids.indexOf(current) : state.active;
  // The current item left: the one after it moves into its place (or the last, at the end).
  active = Math.min(Math.max(active, 0), Math.max(ids.length - 1, 0));
  return { ids, active, selected: new Set([...state.selected].filter((id) => !gone.includes(id))) };
}

export const currentId = (state: QueueState): number | undefined => state.ids[state.active];

/** The selection in queue order, or the current item when nothing is selected (Shift+A / Shift+R act on it then). */
export function targets(state: QueueState): number[] {
  const chosen = state.ids.filter((id) => state.selected.has(id));
  const id = currentId(state);
  return chosen.length ? chosen : id === undefined ? [] : [id];
}

/** The digit pressed in the reason picker (1–9) as an index into the rules, or null. */
export function digitIndex(key: string, rules: number): number | null {
  if (!/^[1-9]$/.test(key)) return null;
  const i = Number(key) - 1;
  return i < rules ? i : null;
}

/** The 409's `data` when a colleague decided the item meanwhile, or null for any other answer. */
export function decidedMeanwhileOf(data: unknown): DecidedMeanwhile | null {
  const parsed = decidedMeanwhileSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** «hace 1 min», "1 min. ago", «vor 1 Min.», "há 1 min." — in the screen's language, from the decision's time. */
export function relativeTime(iso: string, lang: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  const format = new Intl.RelativeTimeFormat(lang.replace('_', '-'), { style: 'short', numeric: 'always' });
  for (const [unit, size] of UNITS) if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  // «ahora», not «hace 0 s» (the live refresh often names a decision made the same second).
  if (seconds === 0) return new Intl.RelativeTimeFormat(lang.replace('_', '-'), { numeric: 'auto' }).format(0, 'second');
  return format.format(-seconds, 'second');
}
