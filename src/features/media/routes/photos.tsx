/**
 * Media/Photos (SPEC §2, named routes `upload.photos` and `profile.photos`): the photos of one ad — the current
 * ones with "make cover" and "delete", and the uploader for new ones.
 *
 * Which ad: `?ad={id}` when given (a publicist or staff member opening a model's ad; the server decides whether
 * they may change it); otherwise the signed-in model's own ad. `profile.photos` carries a user id: a model may only
 * open her own; staff and publicists need `?ad=`.
 */
import { Alert, Anchor, Button, Container, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { PROFILE_CREATE_ROUTES, dashboardFor } from '#contract/roles.ts';
import { PageLoader } from '#src/components/page-loader.tsx';
import { PhotoUploader } from '#src/components/photo-uploader/photo-uploader.tsx';
import { ApiError } from '#src/lib/api-client.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import { runAction } from '#src/lib/response-handler.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { adPhotosQueryOptions, deletePhoto, makeCover, ownModelProfileQueryOptions, refreshPhotos, storePhotos } from '../api/media-api.ts';
import { PhotoGallery, type PhotoGalleryProps } from '../components/photo-gallery.tsx';

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
  if (adFromQuery !== undefined) return <AdPhotos adId={adFromQuery} />;
  if (userId !== undefined && !isId(userId)) return <Notice text={t('photos.page.noAd')} />;
  if (!ownPage) return <Notice text={user.role === 'model' ? t('auth.guard.forbiddenText') : t('photos.page.noAd')} />;
  if (profile.isPending) return <PageLoader />;
  if (profile.isError) return <Notice text={t('photos.page.loadError')} onRetry={() => void profile.refetch()} />;
  if (!profile.data)
    return <Notice text={t('photos.page.noProfile')} link={{ to: PROFILE_CREATE_ROUTES.model!, label: t('photos.page.createProfile') }} />;
  if (!profile.data.ad)
    return <Notice text={t('photos.page.noAdYet')} link={{ to: dashboardFor('model'), label: t('account.menu.dashboard') }} />;
  return <AdPhotos adId={profile.data.ad.id} adTitle={profile.data.ad.title} />;
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

function AdPhotos({ adId, adTitle }: { adId: number; adTitle?: string }) {
  const { t } = useTranslation();
  const ui = usePresenter();
  const client = useQueryClient();
  const currentId = useId();
  const addId = useId();
  const photos = useQuery(adPhotosQueryOptions(adId));
  const [pending, setPending] = useState<PhotoGalleryProps['pending']>(undefined);

  const change = async (mediaId: number, action: 'cover' | 'delete') => {
    setPending({ mediaId, action });
    try {
      const answer = await runAction(() => (action === 'cover' ? makeCover(mediaId) : deletePhoto(mediaId)), ui);
      if (answer) storePhotos(client, adId, answer.data.media);
      // A failed change may mean the list is out of date (photo already gone): ask again.
      else refreshPhotos(client, adId);
    } finally {
      setPending(undefined);
    }
  };

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
          ) : photos.isError ? (
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
            />
          )}
        </section>

        {!notFound && (
          <section aria-labelledby={addId}>
            <Title order={2} size="h3" id={addId} mb="sm">
              {t('photos.page.add')}
            </Title>
            <PhotoUploader adId={adId} existingCount={list.length} onUploaded={() => refreshPhotos(client, adId)} />
          </section>
        )}
      </Stack>
    </Container>
  );
}
