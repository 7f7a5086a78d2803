/**
 * Media/Photos (SPEC §2, named routes `upload.photos` and `profile.photos`): the photos of one ad — the current
 * ones with "make cover" and "delete", and the uploader for new ones.
 *
 * Which ad: `?ad={id}` when given (a publicist or staff member opening a model's ad; the server decides whether
 * they may change it); otherwise the signed-in model's own ad. `profile.photos` carries a user id: a model may only
 * open her own; staff and publicists need `?ad=`.
 *
 * Offline (issue 15): photos that cannot be uploaded, deletions and cover changes wait in the outbox
 * (lib/photo-outbox.ts) and show here as such — a thumbnail "waiting to upload" (then the upload's progress), a
 * photo "will be deleted" / "will be the cover" — until the replayer sends them and the gallery is asked again.
 */
import { Alert, Anchor, Button, Container, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useParams, useSearchParams } from '#src/lib/router.tsx';
import { PROFILE_CREATE_ROUTES, dashboardFor } from '#contract/roles.ts';
import { PageLoader } from '#src/components/page-loader.tsx';
import { PhotoUploader } from '#src/components/photo-uploader/photo-uploader.tsx';
import { API } from '#contract/routes.ts';
import { ApiError, apiRequest } from '#src/lib/api-client.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import { useCurrentUser } from '#src/lib/session.ts';
import { onOutboxEvent } from '#src/offline/runtime.ts';
import type { OutboxOp } from '#src/offline/types.ts';
import { NEEDS_ATTENTION, useScopeOps } from '#src/offline/use-outbox.ts';
import type { ParkedPhoto } from '#src/components/photo-uploader/photo-uploader.tsx';
import { DEFAULT_PLACEMENT, handleAnswer, handleRejection } from '#src/lib/response-handler.ts';
import { adPhotosQueryOptions, ownModelProfileQueryOptions, refreshPhotos, storePhotos } from '../api/media-api.ts';
import { PhotoGallery, type PhotoGalleryProps, type QueuedUpload } from '../components/photo-gallery.tsx';
import { changePhoto, coverQueuedUpload, discardPhotoOp, metaOf, parkUpload, photosScope } from '../lib/photo-outbox.ts';

const isId = (value: string | null | undefined): value is string => !!value && /^[1-9]\d{0,9}$/.test(value);

export function PhotosRoute() {
  const { t } = useTranslation();
  usePageTitle(t('photos.page.title'));
  const { userId } = useParams();
  const [search] = useSearchParams();
  const { data: user } = useCurrentUser();
  const adParam = search.get('ad');
  const adFromQuery = isId(adParam) ? Number(adParam) : undefined;
  const ownPage = !!user && user.role === 'model' && (userId === undefined || userId === String(user.id));
  const profile = useQuery({ ...ownModelProfileQueryOptions(), enabled: ownPage && adFromQuery === undefined });

  if (!user) return <PageLoader />;
  if (adFromQuery !== undefined) return <AdPhotos adId={adFromQuery} userId={user.id} />;
  if (userId !== undefined && !isId(userId)) return <Notice text={t('photos.page.noAd')} />;
  if (!ownPage) return <Notice text={user.role === 'model' ? t('auth.guard.forbiddenText') : t('photos.page.noAd')} />;
  if (profile.isPending) return <PageLoader />;
  if (profile.isError && !profile.data) return <Notice text={t('photos.page.loadError')} onRetry={() => void profile.refetch()} />;
  if (!profile.data)
    return <Notice text={t('photos.page.noProfile')} link={{ to: PROFILE_CREATE_ROUTES.model!, label: t('photos.page.createProfile') }} />;
  if (!profile.data.ad)
    return <Notice text={t('photos.page.noAdYet')} link={{ to: dashboardFor('model'), label: t('account.menu.dashboard') }} />;
  return <AdPhotos adId={profile.data.ad.id} adTitle={profile.data.ad.title} userId={user.id} />;
}

function Notice({ text, onRetry, link }: { text: string; onRetry?: () => void; link?: { to: string; label: string } }) {
  const { t } = useTranslation();
  const lng = useLng();
  return (
    <Container size="sm" py="xl" px="md">
      <Stack>
        <Title order={1}>{t('photos.page.heading')}</Title>
        <Alert color="blue" variant="light">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{text}</Text>
            {onRetry && (
              <Button size="xs" variant="light" onClick={onRetry}>
                {t('common.retry')}
              </Button>
            )}
            {link && (
              <Anchor component={Link} to={withLng(lng, link.to)} size="sm">
                {link.label}
              </Anchor>
            )}
          </Stack>
        </Alert>
      </Stack>
    </Container>
  );
}

function AdPhotos({ adId, adTitle, userId }: { adId: number; adTitle?: string; userId: number }) {
  const { t } = useTranslation();
  const ui = usePresenter();
  const client = useQueryClient();
  const currentId = useId();
  const addId = useId();
  const photos = useQuery(adPhotosQueryOptions(adId));
  const [pending, setPending] = useState<PhotoGalleryProps['pending']>(undefined);
  const ops = useScopeOps(userId, photosScope(adId));
  const progress = useUploadProgress();
  const [reviews, setReviews] = useState<Record<string, 'asking'>>({});
  const queued = useQueuedUploads(ops, progress, reviews);

  /**
   * A queued photo the automated check refused on replay: ask a person to review it (the server kept it), then take
   * it off the outbox — it is with staff now, and the answer reaches the model as a notification and a statement.
   */
  const requestReview = async (opId: string) => {
    const op = ops.find((o) => o.id === opId);
    const token = op?.error?.reviewToken;
    if (!op || !token) return;
    setReviews((r) => ({ ...r, [opId]: 'asking' }));
    try {
      // Its own key (the op's is the upload's), stable for this photo: asking twice is answered, never doubled.
      const res = await apiRequest(API.photoReviews, { method: 'POST', body: { token }, idempotencyKey: `${op.id}-review` });
      handleAnswer(res, ui);
      await discardPhotoOp(op, ops);
    } catch (err) {
      handleRejection(err, ui);
    } finally {
      setReviews(({ [opId]: _done, ...rest }) => rest);
    }
  };

  const change = async (mediaId: number, action: 'cover' | 'delete') => {
    setPending({ mediaId, action });
    try {
      let outcome: Awaited<ReturnType<typeof changePhoto>>;
      try {
        outcome = await changePhoto(userId, adId, mediaId, action);
      } catch (err) {
        // Refused (a photo already gone, no right to it): said as any failed action, and the list asked again.
        if (err instanceof ApiError && err.status !== 422) handleAnswer({ status: err.status, data: err.data }, ui);
        else handleRejection(err, ui);
        refreshPhotos(client, adId);
        return;
      }
      if (outcome === 'queued') ui.notify({ type: 'info', message: t('outbox.savedPending'), placement: DEFAULT_PLACEMENT });
      else {
        handleAnswer(outcome, ui);
        storePhotos(client, adId, outcome.data.data.media);
      }
    } finally {
      setPending(undefined);
    }
  };

  const waitingChanges = useMemo(() => {
    const changes: NonNullable<PhotoGalleryProps['waitingChanges']> = {};
    for (const op of ops) {
      const { mediaId } = metaOf(op);
      if (mediaId === undefined || (op.kind !== 'photo.delete' && op.kind !== 'photo.cover')) continue;
      changes[mediaId] = {
        action: op.kind === 'photo.delete' ? 'delete' : 'cover',
        ...(op.status === 'sending' ? {} : { undo: () => void discardPhotoOp(op, ops) }),
      };
    }
    return changes;
  }, [ops]);

  const park = useCallback((photo: ParkedPhoto) => parkUpload(userId, photo), [userId]);

  const notFound = photos.error instanceof ApiError && (photos.error.status === 404 || photos.error.status === 403);
  const list = photos.data ?? [];

  return (
    <Container size="lg" py="lg" px="md">
      <Stack gap="xl">
        <div>
          <Title order={1}>{t('photos.page.heading')}</Title>
          {adTitle && (
            <Text fw={500} mt={4}>
              {adTitle}
            </Text>
          )}
          <Text mt={4}>{t('photos.page.intro')}</Text>
        </div>

        <section aria-labelledby={currentId}>
          <Title order={2} size="h3" id={currentId} mb="sm">
            {photos.data ? t('photos.page.currentCount', { count: list.length }) : t('photos.page.current')}
          </Title>
          {photos.isPending ? (
            <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm" aria-hidden>
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} style={{ aspectRatio: '3 / 4' }} radius="md" />
              ))}
            </SimpleGrid>
          ) : photos.isError && !photos.data ? (
            <Alert color={notFound ? 'blue' : 'red'} variant="light">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{notFound ? t('photos.page.adNotFound') : t('photos.page.loadError')}</Text>
                {!notFound && (
                  <Button size="xs" variant="light" onClick={() => void photos.refetch()}>
                    {t('common.retry')}
                  </Button>
                )}
              </Stack>
            </Alert>
          ) : (
            <PhotoGallery
              photos={list}
              pending={pending}
              onMakeCover={(id) => void change(id, 'cover')}
              onDelete={(id) => void change(id, 'delete')}
              queued={queued}
              waitingChanges={waitingChanges}
              onCoverQueued={(id) => void coverQueuedUpload(userId, adId, id)}
              onDiscardQueued={(id) => {
                const op = ops.find((o) => o.id === id);
                if (op) void discardPhotoOp(op, ops);
              }}
              onRequestReview={(id) => void requestReview(id)}
            />
          )}
        </section>

        {!notFound && (
          <section aria-labelledby={addId}>
            <Title order={2} size="h3" id={addId} mb="sm">
              {t('photos.page.add')}
            </Title>
            <PhotoUploader
              adId={adId}
              existingCount={list.length + queued.length}
              onUploaded={() => refreshPhotos(client, adId)}
              park={park}
            />
          </section>
        )}
      </Stack>
    </Container>
  );
}

/** Upload progress of the outbox's photos (from this tab's replayer or another's), by op id, 0–100. */
function useUploadProgress(): Record<string, number> {
  const [progress, setProgress] = useState<Record<string, number>>({});
  useEffect(() => {
    const off = onOutboxEvent((e) => {
      if (e.type === 'progress' && e.total > 0) {
        const percent = Math.min(100, Math.round((e.loaded / e.total) * 100));
        setProgress((all) => (all[e.id] === percent ? all : { ...all, [e.id]: percent }));
      }
    });
    return () => void off();
  }, []);
  return progress;
}

/** The queued uploads as the gallery shows them; their thumbnails' object URLs live as long as they are listed. */
function useQueuedUploads(ops: readonly OutboxOp[], progress: Record<string, number>, reviews: Record<string, 'asking'>): QueuedUpload[] {
  const uploads = useMemo(() => ops.filter((op) => op.kind === 'photo.upload'), [ops]);
  const ids = uploads.map((op) => op.id).join(',');
  const urls = useMemo(() => {
    const map = new Map<string, string>();
    for (const op of uploads) {
      const thumbnail = metaOf(op).thumbnail;
      if (thumbnail instanceof Blob) map.set(op.id, URL.createObjectURL(thumbnail));
    }
    return map;
    // One URL per op for as long as it is queued (the ops' other fields change as they are sent).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ids]);
  useEffect(() => () => urls.forEach((url) => URL.revokeObjectURL(url)), [urls]);
  return uploads.map((op) => {
    const refused = NEEDS_ATTENTION.includes(op.status);
    const error = op.error?.errors ? Object.values(op.error.errors).flat()[0] : op.error?.message;
    return {
      id: op.id,
      thumbnail: urls.get(op.id) ?? '',
      state: refused ? 'refused' : op.status === 'sending' ? 'uploading' : 'waiting',
      ...(op.status === 'sending' && progress[op.id] !== undefined ? { progress: progress[op.id] } : {}),
      ...(refused && error ? { error } : {}),
      ...(refused && op.error?.reviewToken ? { review: reviews[op.id] ?? ('offered' as const) } : {}),
      willBeCover: ops.some((o) => o.kind === 'photo.cover' && metaOf(o).uploadOp === op.id),
    };
  });
}
