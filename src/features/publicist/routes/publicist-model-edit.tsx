/** One managed model's edit, which may wait in the outbox and come back stale or refused. */
import { Container, Stack, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useNavigate, useParams } from '#src/lib/router.tsx';
import { PageLoader } from '#src/components/page-loader.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { discard } from '#src/offline/outbox.ts';
import { useOutboxOps } from '#src/offline/use-outbox.ts';
import { PUBLICIST_KEY, publicistModelQueryOptions, updateModel } from '../api/publicist-api.ts';
import { EditModelForm } from '../components/model-form.tsx';
import { MANAGED_MODEL_AD, queueableModelAdUpdate } from '#src/components/model-ad-form/model-ad-writes.ts';
import { PUBLICIST_PATHS } from '../lib/publicist-paths.ts';
import { LoadError } from '../components/publicist-status.tsx';
/** Edit one model (`publicist/models/{id}/edit`). */
export function PublicistModelEditRoute() {
  const { t } = useTranslation();
  usePageTitle(t('publicist.form.editTitle'));
  const lng = useLng();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = Number(useParams().id);
  const model = useQuery({ ...publicistModelQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
  const back = () => void navigate(withLng(lng, PUBLICIST_PATHS.index));
  const user = useCurrentUser().data;
  const queuedOps = useOutboxOps(user?.id);
  // The last queued edit of this model not yet in flight (the form works on it; one in flight shows as pending).
  const queuedEdit = queuedOps?.filter((o) => o.scope === MANAGED_MODEL_AD.editScope(id) && o.status !== 'sending').at(-1);
  if (model.isPending && model.fetchStatus !== 'idle') return <PageLoader />;
  if (!model.data) {
    return (
      <Container size={860} py="lg" px="md">
        <LoadError text={t('publicist.form.loadError')} onRetry={() => void model.refetch()} />
      </Container>
    );
  }
  return (
    <Container size={860} py="lg" px="md">
      <Stack gap="lg">
        <Title order={1}>
          {t('publicist.form.editTitle')}: {model.data.display_name}
        </Title>
        {queuedOps === undefined ? (
          <PageLoader />
        ) : (
          <EditModelForm
            // A queued edit coming back (stale, refused) starts the form from its values; the fresh copy of a model
            // shown from the cache (a newer version) starts it again, so the edit is based on the current version.
            key={`${model.data.id}:${model.data.version}:${queuedEdit?.id ?? ''}:${queuedEdit?.status ?? ''}`}
            model={model.data}
            queued={queuedEdit}
            dropQueued={async () => {
              if (queuedEdit) await discard(queuedEdit.id);
            }}
            submit={(body, formValues) =>
              user
                ? queueableModelAdUpdate(
                    MANAGED_MODEL_AD,
                    user.id,
                    model.data,
                    body,
                    { values: formValues, editPath: withLng(lng, PUBLICIST_PATHS.modelEdit(id)) },
                    PUBLICIST_KEY,
                  )
                : updateModel(id, body).then((sent) => ({ sent }))
            }
            onCancel={back}
            onQueued={back}
            onSaved={() => {
              void queryClient.invalidateQueries({ queryKey: PUBLICIST_KEY });
              back();
            }}
          />
        )}
      </Stack>
    </Container>
  );
}
