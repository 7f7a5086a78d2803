/**
 * Readable labels for the audit log's machine codes: an action `subject.verb` (`ad.reject`, `appeal.reversed`) reads
 * "Anuncio · Rechazo" from `audit.subjects.*` and `audit.actions.*`; a reason code reads as the statement ground it
 * names (`statements.grounds.*`). Anything without a translation stays the raw code, so a new action is never hidden.
 */
export interface Translator {
  t: (key: string) => string;
  exists: (key: string) => boolean;
}

function known({ t, exists }: Translator, key: string): string | null {
  return exists(key) ? t(key) : null;
}

export function auditSubjectLabel(tr: Translator, subjectType: string): string {
  return known(tr, `audit.subjects.${subjectType}`) ?? subjectType;
}

/** `null` when either half has no translation (the caller shows the raw code). */
export function auditActionLabel(tr: Translator, action: string): string | null {
  const dot = action.indexOf('.');
  if (dot <= 0 || dot === action.length - 1) return null;
  const subject = known(tr, `audit.subjects.${action.slice(0, dot)}`);
  const verb = known(tr, `audit.actions.${action.slice(dot + 1)}`);
  return subject && verb ? `${subject} · ${verb}` : null;
}

export function auditReasonLabel(tr: Translator, code: string): string {
  return known(tr, `statements.grounds.${code}`) ?? code;
}
