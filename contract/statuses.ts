/** Profile / verification statuses of SPEC §4, in the order the spec lists them. */
export const STATUSES = ['unverified', 'pending', 'active', 'rejected', 'suspended', 'paused'] as const;
export type Status = (typeof STATUSES)[number];
