/**
 * The header's install button (loaded by pwa-controls.tsx once there is something to offer): the browser's own install
 * dialog where it offers one (`beforeinstallprompt`), else on iOS Safari the steps to add the app to the home screen
 * (Safari has no install API), in a dialog whose code comes when it is opened. Chromium offers the install on the
 * first visit, while the page starts: this button is light (its name shows as the browser's own tooltip) so that it
 * brings no overlay, floating-position or focus-trap code into the first visit's start-up.
 */
import { ActionIcon } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { clearInstallPrompt, type PwaState } from './pwa-state.ts';

const InstallSteps = lazy(async () => ({ default: (await import('./pwa-install-steps.tsx')).InstallSteps }));

export function InstallButton({ state }: { state: PwaState }) {
  const { t } = useTranslation();
  const [steps, setSteps] = useState(false);
  const install = async () => {
    const prompt = state.installPrompt;
    if (!prompt) {
      setSteps(true);
      return;
    }
    await prompt.prompt();
    // The event can be used once, whatever the answer; `appinstalled` then hides the button for good.
    await prompt.userChoice.catch(() => undefined);
    clearInstallPrompt();
  };
  return (
    <>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={t('pwa.install')}
        title={t('pwa.install')}
        onClick={() => void install()}
        data-testid="install-app"
      >
        <IconDownload size={20} aria-hidden />
      </ActionIcon>
      {steps ? (
        <Suspense fallback={null}>
          <InstallSteps onClose={() => setSteps(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
