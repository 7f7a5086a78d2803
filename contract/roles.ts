/**
 * Roles, dashboards and password limits: plain constants without zod, so the app shell can use them without
 * loading the schema library (schemas in auth.ts re-export everything here).
 */
/** Roles (SPEC §1, §6). The order of DASHBOARD_ORDER is the order the spec checks them after login. */
export const ROLES = ['client', 'model', 'publicist', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];
export const REGISTRABLE_ROLES = ['model', 'publicist', 'client'] as const;
export const STAFF_ROLES: readonly Role[] = ['admin', 'super_admin'];

/** Named dashboard routes, language-neutral (the PWA prefixes /{lng}). */
export const DASHBOARDS = {
  model: '/model/dashboard',
  publicist: '/publicist/dashboard',
  admin: '/admin/dashboard',
  super_admin: '/super-admin/dashboard',
  client: '/dashboard',
} as const satisfies Record<Role, string>;
const DASHBOARD_ORDER: Role[] = ['model', 'publicist', 'admin', 'super_admin'];

/** Where a user lands after login or verification: checked in the order Model, Publicist, Admin, Super Admin. */
export function dashboardFor(role: Role): string {
  return DASHBOARD_ORDER.includes(role) ? DASHBOARDS[role] : DASHBOARDS.client;
}

/** Which roles have a profile to create after verification, and where. */
export const PROFILE_CREATE_ROUTES: Partial<Record<Role, string>> = {
  model: '/profile/model/create',
  publicist: '/profile/publicist/create',
};

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
