/** The status filter's choices of the staff lists: every status, and "all". */
import { STATUSES } from '#contract/statuses.ts';

export function statusOptions(t: (k: string) => string): [string, string][] {
  return [['all', t('admin.filters.all')], ...STATUSES.map((s): [string, string] => [s, t(`statuses.${s}`)])];
}
