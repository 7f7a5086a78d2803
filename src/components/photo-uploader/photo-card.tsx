/** One queued photo: its name and state, the pixelation editor once it is prepared, progress, and what went wrong. */
import { Alert, Badge, Button, Card, CloseButton, Group, Progress, Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { Box } from './box-geometry.ts';
import type { PhotoStage, QueuedPhoto } from './photo-queue.ts';
import { PixelationEditor } from './pixelation-editor.tsx';

const STAGE_COLORS: Record<PhotoStage, string> = {
  preparing: 'gray',
  detecting: 'gray',
  ready: 'blue',
  uploading: 'blue',
  uploaded: 'teal',
  queued: 'teal',
  refused: 'red',
  failed: 'orange',
};

export interface PhotoCardProps {
  item: QueuedPhoto;
  /** The queue is sending photos: nothing may be edited or removed meanwhile. */
  locked: boolean;
  onAreas: (areas: Box[]) => void;
  onRemove: () => void;
  onRetry: () => void;
  /** Asks a person to review an automated refusal (shown only when the refusal offers it). */
  onRequestReview?: () => void;
}

export function PhotoCard({ item, locked, onAreas, onRemove, onRetry, onRequestReview }: PhotoCardProps) {
  const { t } = useTranslation();
  const name = item.file.name;
  const editable = !locked && (item.stage === 'ready' || (item.stage === 'failed' && !!item.failure));
  const stageKey = item.stage === 'failed' && item.failure ? 'uploadFailed' : item.stage;

  let progressLabel: string | undefined;
  if (item.stage === 'preparing') progressLabel = t('photos.card.compressing', { percent: item.progress });
  else if (item.stage === 'detecting') progressLabel = t('photos.card.detecting');
  else if (item.stage === 'uploading') progressLabel = t('photos.card.uploading', { percent: item.progress });

  return (
    <Card component="li" withBorder padding="sm" radius="md" aria-label={name} data-testid="photo-card" data-stage={item.stage}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} size="sm" truncate="end" title={name} style={{ minWidth: 0 }}>
            {name}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Badge color={STAGE_COLORS[item.stage]} variant="light">
              {t(`photos.stage.${stageKey}`)}
            </Badge>
            <CloseButton
              aria-label={t('photos.card.remove', { name })}
              disabled={locked || item.stage === 'uploading'}
              onClick={onRemove}
            />
          </Group>
        </Group>

        {item.photo ? (
          <PixelationEditor photo={item.photo} areas={item.areas} onChange={onAreas} name={name} disabled={!editable} />
        ) : item.problem ? null : (
          <Skeleton height={180} radius="sm" animate aria-hidden />
        )}

        {progressLabel && (
          <Stack gap={4}>
            <Progress
              value={item.stage === 'detecting' ? 100 : item.progress}
              striped={item.stage === 'detecting'}
              animated={item.stage === 'detecting'}
              size="sm"
              aria-label={progressLabel}
              transitionDuration={150}
            />
            <Text size="xs" c="dimmed" aria-hidden>
              {progressLabel}
            </Text>
          </Stack>
        )}

        {item.stage === 'ready' && item.detection && (
          <Text
            size="sm"
            c={item.detection === 'unavailable' ? 'orange' : 'dimmed'}
            role={item.detection === 'unavailable' ? 'alert' : undefined}
          >
            {t(`photos.detection.${item.detection}`, { count: item.areas.length })}
          </Text>
        )}

        {item.problem && (
          <Alert color="red" variant="light" title={t(`photos.problem.${item.problem}.title`)}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t(`photos.problem.${item.problem}.text`)}</Text>
              {item.problem === 'prepare_failed' && (
                <Button size="xs" variant="light" onClick={onRetry}>
                  {t('common.retry')}
                </Button>
              )}
            </Stack>
          </Alert>
        )}

        {item.refusal && (
          <Alert color="red" variant="light" title={t('photos.card.refused')} role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{item.refusal.message || t('photos.card.refused')}</Text>
              {item.refusal.review ? <ReviewRequest item={item} onRequestReview={onRequestReview} /> : null}
            </Stack>
          </Alert>
        )}

        {item.stage === 'failed' && item.failure && (
          <Alert color="orange" variant="light" title={t('photos.card.uploadFailed')} role="alert">
            <Text size="sm">{item.failure.message ?? t(item.failure.kind === 'offline' ? 'errors.offline' : 'photos.card.tryAgain')}</Text>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The way forward from an automated refusal (issue 24 B7; DSA art. 17: automated decisions are named and can be
 * contested): says the decision was automated and offers a person's review, then what happens next.
 */
function ReviewRequest({ item, onRequestReview }: { item: QueuedPhoto; onRequestReview: (() => void) | undefined }) {
  const { t } = useTranslation();
  const review = item.review;
  if (review?.state === 'requested')
    return (
      <Text size="sm" fw={600} role="status" data-testid="photo-review-requested">
        {t('photos.review.requested')}
      </Text>
    );
  return (
    <>
      <Text size="sm">{t('photos.review.automated')}</Text>
      {review?.state === 'failed' && (
        <Text size="sm" c="red" role="alert">
          {review.message ?? t('photos.review.failed')}
        </Text>
      )}
      {onRequestReview && (
        <Button size="xs" variant="filled" onClick={onRequestReview} loading={review?.state === 'sending'}>
          {t('photos.review.ask')}
        </Button>
      )}
    </>
  );
}
