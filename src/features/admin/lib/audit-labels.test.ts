import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditActionLabel, auditReasonLabel, auditSubjectLabel, type Translator } from './audit-labels.ts';

type Dict = { [key: string]: string | Dict };
const es = JSON.parse(fs.readFileSync(path.resolve(process.cwd(), 'locales/es.json'), 'utf8')) as Dict & {
  statements: { grounds: Record<string, string> };
};
// A translator over the real Spanish file, so a renamed or missing key fails here.
const lookup = (key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], es);
const tr: Translator = { t: (key) => String(lookup(key)), exists: (key) => typeof lookup(key) === 'string' };

describe('audit labels', () => {
  it('composes subject and verb for the actions the server records', () => {
    expect(auditActionLabel(tr, 'ad.reject')).toBe('Anuncio · Rechazo');
    expect(auditActionLabel(tr, 'appeal.reversed')).toBe('Recurso · Decisión anulada');
    expect(auditActionLabel(tr, 'model_profile.approve')).toBe('Perfil de modelo · Aprobación');
    expect(auditActionLabel(tr, 'user.create_admin')).toBe('Cuenta · Alta de administrador');
    expect(auditActionLabel(tr, 'media.upload')).toBe('Foto · Subida');
    expect(auditActionLabel(tr, 'contact_message.archived')).toBe('Mensaje de contacto · Archivado');
  });

  it('answers null for an unknown subject, verb or shape (the raw code is shown instead)', () => {
    expect(auditActionLabel(tr, 'ad.teleport')).toBeNull();
    expect(auditActionLabel(tr, 'spaceship.approve')).toBeNull();
    expect(auditActionLabel(tr, 'approve')).toBeNull();
    expect(auditActionLabel(tr, 'ad.')).toBeNull();
  });

  it('translates subjects and reason codes, falling back to the raw code', () => {
    expect(auditSubjectLabel(tr, 'publicist_profile')).toBe('Perfil de agencia');
    expect(auditSubjectLabel(tr, 'widget')).toBe('widget');
    expect(auditReasonLabel(tr, 'spam')).toBe(es.statements.grounds.spam);
    expect(auditReasonLabel(tr, 'made_up')).toBe('made_up');
  });
});
