/**
 * Keeps an unfinished form in localStorage so a reload (or a dropped connection on a phone) does not lose what
 * the user typed. One draft per user and form; cleared when the server has the data.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Draft<V> {
  values: V;
  step: number;
  /** For edits: the record version the draft started from (a newer one on the server means a conflict). */
  baseVersion?: number;
  savedAt: number;
}

export function readDraft<V>(key: string): Draft<V> | undefined {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Draft<V>) : undefined;
  } catch {
    return undefined;
  }
}

export function writeDraft<V>(key: string, draft: Draft<V>): void {
  try {
    localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // Storage full or disabled (private mode): the form still works, it just cannot survive a reload.
  }
}

export function clearDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // See writeDraft.
  }
}

/** State that mirrors itself into the draft on every change (debounced a little: typing writes once). */
export function useDraftState<V>(key: string, initial: () => Draft<V>) {
  const [stored] = useState(() => readDraft<V>(key));
  const [draft, setDraft] = useState<Draft<V>>(() => stored ?? initial());
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const dirty = useRef(false);
  useEffect(() => {
    if (!dirty.current) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => writeDraft(key, draft), 250);
    return () => clearTimeout(timer.current);
  }, [key, draft]);
  // Flush on leave, so a reload right after typing keeps the last keystrokes.
  useEffect(() => {
    const flush = () => {
      if (dirty.current) writeDraft(key, draftRef.current);
    };
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, [key]);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const update = useCallback((next: (d: Draft<V>) => Draft<V>) => {
    dirty.current = true;
    setDraft((d) => ({ ...next(d), savedAt: Date.now() }));
  }, []);
  const discard = useCallback(() => {
    dirty.current = false;
    clearTimeout(timer.current);
    clearDraft(key);
  }, [key]);
  return { draft, update, discard, restored: stored !== undefined };
}
