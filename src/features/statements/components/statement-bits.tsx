import { Badge } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { Statement } from '#contract/statements.ts';

const APPEAL_COLOR = { pending: 'blue', upheld: 'gray', reversed: 'teal' } as const;

/** "Anuncio: Rechazado" and, when there is an appeal, its state. */
export function StatementBadges({ statement }: { statement: Statement }) {
  const { t } = useTranslation();
  return (
    <>
      <Badge color="red" variant="light" tt="none">
        {t(`statements.decisions.${statement.decision}`)}
      </Badge>
      {statement.appeal ? (
        <Badge color={APPEAL_COLOR[statement.appeal.status]} variant="light" tt="none">
          {t(`statements.appeal.statuses.${statement.appeal.status}`)}
        </Badge>
      ) : statement.can_appeal ? (
        <Badge color="orange" variant="outline" tt="none">
          {t('statements.panel.appealable')}
        </Badge>
      ) : null}
    </>
  );
}

export function statementTitle(t: (k: string, o?: Record<string, unknown>) => string, s: Statement): string {
  const subject = t(`statements.subjects.${s.subject_type}`);
  return s.subject_label ? `${subject} «${s.subject_label}»` : subject;
}
