/**
 * "The outbox stopped on an expired session" as a localStorage flag, tiny and free of Dexie, so the shell can tell a
 * signed-out visitor that they have changes waiting for a sign-in without loading the outbox.
 */
const KEY = 'vitrina:outbox:auth';

export function setOutboxAuthFlag(userId: number) {
  try {
    localStorage.setItem(KEY, String(userId));
  } catch {
    // Storage refused: the sync indicator still says it while the user is known.
  }
}
export function clearOutboxAuthFlag() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // See setOutboxAuthFlag.
  }
}
export function hasOutboxAuthFlag(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(KEY) !== null;
  } catch {
    return false;
  }
}
