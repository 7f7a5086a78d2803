/**
 * The daily e-mail's unsubscribe page (issue 28), `/{lng}/saved-searches/unsubscribe/{id}/{token}`: no sign-in needed.
 * Opening it changes nothing (mail scanners follow links); its one button POSTs the signed link's id and token, which
 * turns the search's alerts off.
 */
import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useParams } from '#src/lib/router.tsx';
import { API } from '#contract/routes.ts';
import { apiRequest } from '#src/lib/api-client.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';

type State = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; name: string } | { kind: 'error' };

export function SavedSearchUnsubscribeRoute() {
  const { t } = useTranslation();
  usePageTitle(t('savedSearches.unsubscribe.title'));
  const lng = useLng();
  const { id = '', token = '' } = useParams();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const valid = /^\d{1,10}$/.test(id) && /^[A-Za-z0-9_-]{16,200}$/.test(token);

  const unsubscribe = async () => {
    setState({ kind: 'busy' });
    try {
      const res = await apiRequest<{ data: { name: string } }>(API.savedSearchUnsubscribe, { method: 'POST', body: { id, token } });
      setState({ kind: 'done', name: res.data.data.name });
    } catch {
      setState({ kind: 'error' });
    }
  };

  return (
    <Container size="xs" py="xl">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('savedSearches.unsubscribe.title')}
        </Title>
        {state.kind === 'done' ? (
          <Alert color="green" role="status">
            {t('savedSearches.unsubscribe.done', { name: state.name })}
          </Alert>
        ) : state.kind === 'error' || !valid ? (
          <Alert color="red" role="alert">
            {t('savedSearches.unsubscribe.error')}
          </Alert>
        ) : (
          <>
            <Text>{t('savedSearches.unsubscribe.text')}</Text>
            <Button onClick={() => void unsubscribe()} loading={state.kind === 'busy'} data-testid="unsubscribe">
              {t('savedSearches.unsubscribe.button')}
            </Button>
          </>
        )}
        <Button component={Link} to={withLng(lng, '/')} variant="subtle">
          {t('savedSearches.unsubscribe.home')}
        </Button>
      </Stack>
    </Container>
  );
}
