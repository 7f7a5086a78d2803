import { Button, type ButtonProps } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { usePresenter } from '#src/lib/presenter.tsx';
import { runAction } from '#src/lib/response-handler.ts';
import { sendVerificationEmail } from '#src/lib/session.ts';

/** POST /api/verification/send for a logged-in, unverified user; the answer (or the 429) is shown as a notification. */
export function ResendVerificationButton(props: ButtonProps) {
  const { t } = useTranslation();
  const ui = usePresenter();
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="light"
      leftSection={<IconMailForward size={18} aria-hidden />}
      maw="100%"
      // Long labels (German, Portuguese) wrap instead of overflowing narrow screens.
      styles={{
        root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 6 },
        label: { whiteSpace: 'normal', textAlign: 'center' },
      }}
      {...props}
      loading={pending}
      onClick={async () => {
        setPending(true);
        await runAction(sendVerificationEmail, ui);
        setPending(false);
      }}
    >
      {t('auth.verify.resend')}
    </Button>
  );
}
