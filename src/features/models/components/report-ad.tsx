import { Button } from '@mantine/core';
import { IconFlag } from '@tabler/icons-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';

// The dialog's code (Modal, the form's inputs, zod's report schema) is not in the model page's first load: it is asked
// for on the first click, or when the pointer comes near the button.
const loadDialog = () => import('./report-ad-dialog.tsx');
const ReportAdDialog = lazy(async () => ({ default: (await loadDialog()).ReportAdDialog }));

/**
 * "Report this ad" (EU DSA art. 16): a notice anyone can send, with or without an account. A dialog on wide screens,
 * full screen on phones. On success it shows the receipt code; the same code arrives by mail if a contact was left.
 */
export function ReportAd({ adId }: { adId: number; adUrl?: string }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [asked, setAsked] = useState(false);
  const openedAt = useRef(0);

  const start = () => {
    openedAt.current = Date.now();
    setAsked(true);
    setOpened(true);
  };

  return (
    <>
      <Button
        variant="subtle"
        color="gray"
        size="compact-sm"
        leftSection={<IconFlag size={16} aria-hidden />}
        onClick={start}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        style={{ alignSelf: 'flex-start' }}
        data-testid="report-ad"
      >
        {t('model.report.open')}
      </Button>
      {asked ? (
        <Suspense fallback={null}>
          <ReportAdDialog adId={adId} opened={opened} openedAt={openedAt} onClose={() => setOpened(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
