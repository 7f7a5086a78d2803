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

const USER_KEY = 'vitrina:outbox:user';
/**
 * The user whose queue was last opened on this device. Offline after a reload the session cannot be checked: the
 * indicator and the sync page still show that user's queued ops (they are on this device anyway); nothing is sent
 * until the server confirms who is signed in.
 */
export function rememberOutboxUser(userId: number) {
  try {
    localStorage.setItem(USER_KEY, String(userId));
  } catch {
    // See setOutboxAuthFlag.
  }
}
export function lastOutboxUser(): number | undefined {
  try {
    const id = Number(localStorage.getItem(USER_KEY));
    return Number.isInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}
export function forgetOutboxUser() {
  try {
    localStorage.removeItem(USER_KEY);
  } catch {
    // See setOutboxAuthFlag.
  }
}
