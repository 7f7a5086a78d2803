import { Badge, Button } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { Status } from '#contract/statuses.ts';
import type { DecisionTarget } from './decision-dialog.tsx';
import { WRAPPING_BADGE } from './wrapping-badge.ts';

/**
 * "Suspend account" / "Reinstate account" for a whole client, model or publicist account (issue 12 point 9). It opens
 * the decision dialog (reasons and facts for a suspension, which sends a statement of reasons); the accessible name
 * is "{action}: {name}", like the other decision buttons.
 */
export function AccountActionButton({
  userId,
  name,
  status,
  onDecide,
}: {
  userId: number;
  name: string;
  status: Status;
  onDecide: (target: DecisionTarget) => void;
}) {
  const { t } = useTranslation();
  const suspended = status === 'suspended';
  const action = suspended ? 'reinstate' : 'suspend';
  const label = t(`admin.account.${action}`);
  return (
    <Button
      size="xs"
      variant={suspended ? 'filled' : 'outline'}
      color={suspended ? 'teal' : 'red'}
      aria-label={`${label}: ${name}`}
      onClick={() =>
        onDecide({
          subjectType: 'user',
          subjectId: userId,
          action,
          name,
          label,
          note: t(suspended ? 'admin.account.reinstateNote' : 'admin.account.note'),
        })
      }
    >
      {label}
    </Button>
  );
}

/** Shown beside an account whose suspension is in force. */
export function AccountSuspendedBadge({ status }: { status: Status }) {
  const { t } = useTranslation();
  if (status !== 'suspended') return null;
  return (
    <Badge color="red" variant="filled" tt="none" classNames={WRAPPING_BADGE}>
      {t('admin.account.suspended')}
    </Badge>
  );
}
