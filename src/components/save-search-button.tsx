/**
 * "Guardar búsqueda" beside the listing's filters (issue 28). Only the button is on the home's first paint (the JS
 * budget, decision 0025: no icon, and the suggested name is worked out by the dialog); the dialog
 * (save-search-button-dialog.tsx) is fetched on the first press, or when the pointer or focus comes near it. It renders
 * the same for everyone (server-rendered markup hydrates without a mismatch); who is signed in is asked once pressed.
 */
import { Button } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { SaveSearchQuery } from './save-search-button-dialog.tsx';

const load = () => import('./save-search-button-dialog.tsx');
const SaveSearchDialog = lazy(() => load().then((m) => ({ default: m.SaveSearchDialog })));

export function SaveSearchButton({ query, sectionName }: { query: SaveSearchQuery; sectionName: string | undefined }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [mounted, setMounted] = useState(false);
  return (
    <>
      <Button
        variant="light"
        size="xs"
        aria-label={t('savedSearches.buttonLabel')}
        onPointerEnter={() => void load()}
        onFocus={() => void load()}
        onClick={() => {
          setMounted(true);
          setOpened(true);
        }}
        data-testid="save-search"
      >
        {t('savedSearches.button')}
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <SaveSearchDialog opened={opened} onClose={() => setOpened(false)} query={query} sectionName={sectionName} />
        </Suspense>
      ) : null}
    </>
  );
}
