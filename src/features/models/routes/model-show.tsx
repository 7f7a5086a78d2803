/**
 * Profile / Model Show: one ad — the gallery, name, age, city, section, verification, the description, the
 * contact buttons (call, WhatsApp) and the "report this ad" entry point. Hidden and unknown ads answer 404 and
 * get the not-found page.
 */
import { Alert, Badge, Button, Container, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { API } from '#contract/routes.ts';
import { IconAlertTriangle, IconMapPin, IconRosetteDiscountCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useParams } from '#src/lib/router.tsx';
import { isLanguage, type Language } from '#contract/languages.ts';
import type { ModelDetail } from '#contract/listings.ts';
import { FavouriteButtonLabelled } from '#src/components/favourite-button-labelled.tsx';
import { NotFoundPage } from '#src/components/not-found.tsx';
import { isOfflineWithoutData, OfflineState } from '#src/components/offline-state.tsx';
import { SavedCopyNote } from '#src/components/saved-copy.tsx';
import { ApiError } from '#src/lib/api-client.ts';
import { formatDate } from '#src/lib/format.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { cardOf, recordRecentView } from '#src/lib/recent-views.ts';
import { isAdId, modelImagesQueryOptions, modelQueryOptions } from '../api/get-model.ts';
import { BackLink } from '../components/back-link.tsx';
import { ModelAreaMap } from '../components/model-area-map.tsx';
import { ContactBar } from '../components/contact-bar.tsx';
import { ModelGallery, ModelGallerySkeleton } from '../components/model-gallery.tsx';
import { ReportAd } from '../components/report-ad.tsx';
import classes from '../components/model-show.module.css';

export function ModelShowRoute() {
  const params = useParams();
  const { t } = useTranslation();
  const lng: Language = isLanguage(params.lng) ? params.lng : 'es';
  const id = isAdId(params.id) ? params.id : undefined;
  const model = useQuery({ ...modelQueryOptions(id ?? '', lng), enabled: !!id });
  const images = useQuery({ ...modelImagesQueryOptions(id ?? ''), enabled: !!id });
  const notFound = !id || (model.error instanceof ApiError && model.error.status === 404);
  usePageTitle(notFound ? t('pages.notFound') : (model.data?.name ?? t('model.pageTitle')));

  // Recently viewed (issue 28): this device's list only; recorded again when the answer changes (a fresher card).
  const shown = model.data;
  useEffect(() => {
    if (shown) recordRecentView(shown);
  }, [shown]);
  if (notFound) return <NotFoundPage />;

  return (
    <Container size="lg" py="md">
      <Stack gap="md">
        <BackLink lng={lng} />
        <SavedCopyNote updatedAt={model.dataUpdatedAt} error={model.error} url={API.model(id ?? '')} />
        {/* A refresh that failed keeps what was shown (a saved copy offline). */}
        {isOfflineWithoutData(model) ? (
          <OfflineState order={1} onRetry={() => void model.refetch()} retrying={model.isFetching} />
        ) : model.isError && !model.data ? (
          <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('model.loadError')}>
            <Button size="xs" variant="default" onClick={() => void model.refetch()} loading={model.isFetching}>
              {t('common.retry')}
            </Button>
          </Alert>
        ) : model.isPending ? (
          <ModelShowSkeleton />
        ) : (
          <article className={classes.layout} aria-labelledby="model-name">
            <div className={classes.gallery}>
              {images.isPending ? (
                <ModelGallerySkeleton />
              ) : (
                // If the gallery fails, the cover from the ad itself still shows.
                <ModelGallery images={images.data ?? (model.data.cover ? [model.data.cover] : [])} name={model.data.name} />
              )}
            </div>
            <ModelDetails model={model.data} lng={lng} />
            <div className={classes.area}>
              <ModelAreaMap city={model.data.city} state={model.data.state} />
            </div>
          </article>
        )}
      </Stack>
    </Container>
  );
}

function ModelDetails({ model, lng }: { model: ModelDetail; lng: Language }) {
  const { t } = useTranslation();
  const place = [model.city.name, model.state].filter(Boolean).join(', ');
  return (
    <div className={classes.details}>
      <Stack gap={6}>
        <Title order={1} id="model-name" fz={{ base: 28, sm: 34 }} style={{ overflowWrap: 'anywhere' }}>
          {model.name}
        </Title>
        {model.title ? (
          <Text fw={500} size="lg" style={{ overflowWrap: 'anywhere' }}>
            {model.title}
          </Text>
        ) : null}
        <Group gap="xs" c="dimmed" wrap="wrap">
          {model.age ? <Text span>{t('model.age', { age: model.age })}</Text> : null}
          {model.age && place ? (
            <Text span aria-hidden>
              ·
            </Text>
          ) : null}
          <Group gap={4} wrap="nowrap" component="span">
            <IconMapPin size={16} aria-hidden />
            <Text span>{place}</Text>
          </Group>
        </Group>
        <Group gap="xs" mt={4}>
          <Badge variant="dot" color={model.section.color} size="lg" tt="none">
            {model.section.name}
          </Badge>
          {model.verified ? (
            <Badge color="teal" variant="filled" size="lg" tt="none" leftSection={<IconRosetteDiscountCheck size={16} aria-hidden />}>
              {t('statuses.active')}
            </Badge>
          ) : null}
        </Group>
      </Stack>

      <Group>
        <FavouriteButtonLabelled card={cardOf(model)} />
      </Group>
      <ContactBar model={model} />

      <section aria-labelledby="description-title">
        <Title order={2} size="h4" id="description-title" mb="xs">
          {t('model.description')}
        </Title>
        <Text className={classes.description}>{model.description}</Text>
        <Text size="sm" c="dimmed" mt="sm">
          {t('model.published', { date: formatDate(model.published_at, lng) })}
        </Text>
      </section>

      <ReportAd adId={model.id} />
    </div>
  );
}

function ModelShowSkeleton() {
  const { t } = useTranslation();
  return (
    <div className={classes.layout} aria-busy="true" data-testid="model-skeleton">
      <VisuallyHidden role="status">{t('common.loading')}</VisuallyHidden>
      <ModelGallerySkeleton />
      <Stack gap="sm">
        <Skeleton h={34} w="60%" />
        <Skeleton h={18} w="80%" />
        <Skeleton h={14} w="45%" />
        <Group gap="xs">
          <Skeleton h={26} w={96} radius="xl" />
          <Skeleton h={26} w={96} radius="xl" />
        </Group>
        <Skeleton h={44} mt="md" />
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} h={14} w={i === 4 ? '50%' : '100%'} />
        ))}
      </Stack>
    </div>
  );
}
