import { describe, expect, it } from 'vitest';
import { suspendedMayOpen } from './suspended-guard.tsx';

describe('suspendedMayOpen', () => {
  it('lets a suspended account open its restricted view, its statements, its profile page, support and the public pages', () => {
    for (const path of [
      '/account/suspended',
      '/statements',
      '/statements/12',
      '/profile',
      '/confirm-password',
      '/legal/terms',
      // Issue 24 point 11: the public site and the support chat stay open.
      '/',
      '/models/12',
      '/messenger',
      '/messenger/3',
    ]) {
      expect(suspendedMayOpen(path), path).toBe(true);
    }
  });

  it('sends it away from everything else: home, dashboards, profile editing, staff and publicist screens', () => {
    for (const path of [
      '/model/dashboard',
      '/dashboard',
      '/profile/model',
      '/profile/model/edit',
      '/admin/dashboard',
      '/contact',
      '/statementsx',
      '/modelsx',
      '/publicist/dashboard',
      '/sync',
    ]) {
      expect(suspendedMayOpen(path), path).toBe(false);
    }
  });
});
