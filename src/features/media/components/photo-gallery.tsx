/**
 * The ad's current photos, cover first: each can be made the cover (exactly one is) or deleted, after a confirmation.
 * Then the photos still waiting in the outbox to be uploaded (their thumbnail, "waiting to upload" or the upload's
 * progress, the server's refusal), and on the current ones a deletion or cover change that waits for the network.
 */
import { Badge, Button, Card, Group, Image as MantineImage, Modal, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconClock, IconStar, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { Image } from '#contract/listings.ts';

/** Two columns on phones, up to four on desktops (see SimpleGrid below). */
const SIZES = '(min-width: 62em) 240px, (min-width: 36em) 33vw, 50vw';

/** A photo in the outbox, waiting to be uploaded. */
export interface QueuedUpload {
  /** The outbox op's id. */
  id: string;
  /** Object URL of its thumbnail. */
  thumbnail: string;
  state: 'waiting' | 'uploading' | 'refused';
  /** 0–100 while uploading, when known. */
  progress?: number;
  /** The server's reason, when refused. */
  error?: string;
  /** Refused by the automated check: a person's review can be asked for (issue 24 B7); `asking` while it is. */
  review?: 'offered' | 'asking';
  /** A cover change waits for its upload. */
  willBeCover: boolean;
}

export interface PhotoGalleryProps {
  photos: Image[];
  /** The photo whose change is being sent, if any (its buttons show a spinner; the others wait). */
  pending?: { mediaId: number; action: 'cover' | 'delete' } | undefined;
  onMakeCover: (mediaId: number) => void;
  onDelete: (mediaId: number) => void;
  /** Photos waiting in the outbox to be uploaded. */
  queued?: QueuedUpload[];
  /** Changes of current photos waiting in the outbox, by media id; `undo` unless it is being sent. */
  waitingChanges?: Record<number, { action: 'cover' | 'delete'; undo?: () => void }>;
  onCoverQueued?: (id: string) => void;
  onDiscardQueued?: (id: string) => void;
  /** Asks a person to review a queued photo the automated check refused. */
  onRequestReview?: (id: string) => void;
}

export function PhotoGallery({
  photos,
  pending,
  onMakeCover,
  onDelete,
  queued = [],
  waitingChanges = {},
  onCoverQueued,
  onDiscardQueued,
  onRequestReview,
}: PhotoGalleryProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState<Image | undefined>(undefined);

  if (photos.length === 0 && queued.length === 0) {
    return (
      <Text c="dimmed" data-testid="gallery-empty">
        {t('photos.gallery.empty')}
      </Text>
    );
  }

  return (
    <>
      <SimpleGrid
        component="ul"
        cols={{ base: 2, sm: 3, md: 4 }}
        spacing="sm"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label={t('photos.gallery.label')}
      >
        {photos.map((photo, index) => {
          const label = photo.is_cover ? t('photos.gallery.altCover', { n: index + 1 }) : t('photos.gallery.alt', { n: index + 1 });
          const waiting = waitingChanges[photo.media_id];
          const busy = !!pending || waiting?.action === 'delete';
          return (
            <Card
              component="li"
              key={photo.media_id}
              withBorder
              padding="xs"
              radius="md"
              data-testid="gallery-photo"
              data-media-id={photo.media_id}
              data-cover={photo.is_cover || undefined}
              data-waiting={waiting?.action}
              style={waiting?.action === 'delete' ? { opacity: 0.6 } : undefined}
            >
              <Card.Section pos="relative">
                <MantineImage
                  src={photo.url}
                  srcSet={photo.srcset}
                  sizes={SIZES}
                  alt={label}
                  loading="lazy"
                  decoding="async"
                  style={{ aspectRatio: '3 / 4', objectFit: 'cover', width: '100%' }}
                />
                {photo.is_cover && (
                  <Badge pos="absolute" top={8} left={8} color="yellow" c="dark" leftSection={<IconStar size={12} aria-hidden />}>
                    {t('photos.gallery.cover')}
                  </Badge>
                )}
              </Card.Section>
              <Stack gap={6} mt="xs">
                {waiting && (
                  <WaitingNote
                    text={waiting.action === 'delete' ? t('photos.pending.willDelete') : t('photos.pending.willBeCover')}
                    undo={waiting.undo}
                  />
                )}
                <Button
                  size="xs"
                  variant="light"
                  fullWidth
                  disabled={photo.is_cover || busy || waiting?.action === 'cover'}
                  loading={pending?.mediaId === photo.media_id && pending.action === 'cover'}
                  onClick={() => onMakeCover(photo.media_id)}
                  aria-label={
                    photo.is_cover
                      ? t('photos.gallery.isCoverLabel', { n: index + 1 })
                      : t('photos.gallery.makeCoverLabel', { n: index + 1 })
                  }
                >
                  {photo.is_cover ? t('photos.gallery.isCover') : t('photos.gallery.makeCover')}
                </Button>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  fullWidth
                  leftSection={<IconTrash size={14} aria-hidden />}
                  disabled={busy}
                  loading={pending?.mediaId === photo.media_id && pending.action === 'delete'}
                  onClick={() => setConfirming(photo)}
                  aria-label={t('photos.gallery.deleteLabel', { n: index + 1 })}
                >
                  {t('photos.gallery.delete')}
                </Button>
              </Stack>
            </Card>
          );
        })}
        {queued.map((photo, index) => (
          <QueuedCard
            key={photo.id}
            photo={photo}
            n={index + 1}
            onCover={onCoverQueued ? () => onCoverQueued(photo.id) : undefined}
            onDiscard={onDiscardQueued ? () => onDiscardQueued(photo.id) : undefined}
            onRequestReview={onRequestReview ? () => onRequestReview(photo.id) : undefined}
          />
        ))}
      </SimpleGrid>

      <Modal opened={!!confirming} onClose={() => setConfirming(undefined)} title={t('photos.gallery.confirmTitle')} centered>
        <Stack>
          <Text>{confirming?.is_cover ? t('photos.gallery.confirmCoverText') : t('photos.gallery.confirmText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(undefined)} data-autofocus>
              {t('photos.gallery.cancel')}
            </Button>
            <Button
              color="red"
              onClick={() => {
                if (confirming) onDelete(confirming.media_id);
                setConfirming(undefined);
              }}
            >
              {t('photos.gallery.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function WaitingNote({ text, undo }: { text: string; undo?: (() => void) | undefined }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap" justify="space-between" data-testid="photo-waiting-change">
      <Group gap={4} wrap="nowrap">
        <IconClock size={14} aria-hidden />
        <Text size="xs">{text}</Text>
      </Group>
      {undo && (
        <Button size="compact-xs" variant="subtle" color="gray" onClick={undo}>
          {t('photos.pending.cancelChange')}
        </Button>
      )}
    </Group>
  );
}

/** A photo in the outbox: its thumbnail (already pixelated: it is what will be sent) and where its upload stands. */
function QueuedCard({
  photo,
  n,
  onCover,
  onDiscard,
  onRequestReview,
}: {
  photo: QueuedUpload;
  n: number;
  onCover?: () => void;
  onDiscard?: () => void;
  onRequestReview?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card component="li" withBorder padding="xs" radius="md" data-testid="gallery-queued" data-state={photo.state}>
      <Card.Section pos="relative">
        <MantineImage
          src={photo.thumbnail}
          alt={t('photos.pending.alt', { n })}
          style={{ aspectRatio: '3 / 4', objectFit: 'cover', width: '100%', opacity: photo.state === 'refused' ? 0.5 : 0.85 }}
        />
        <Badge
          pos="absolute"
          top={8}
          left={8}
          color={photo.state === 'refused' ? 'red' : 'gray'}
          leftSection={photo.state === 'waiting' ? <IconClock size={12} aria-hidden /> : undefined}
        >
          {photo.state === 'refused'
            ? t('photos.pending.refused')
            : photo.state === 'uploading'
              ? t('photos.pending.uploading', { percent: photo.progress ?? 0 })
              : t('photos.pending.waiting')}
        </Badge>
      </Card.Section>
      <Stack gap={6} mt="xs">
        {photo.state === 'uploading' && (
          <Progress value={photo.progress ?? 0} size="sm" aria-label={t('photos.pending.uploading', { percent: photo.progress ?? 0 })} />
        )}
        {photo.error && (
          <Text size="xs" c="red" role="alert">
            {photo.error}
          </Text>
        )}
        {photo.willBeCover ? (
          <WaitingNote text={t('photos.pending.willBeCover')} />
        ) : (
          onCover &&
          photo.state === 'waiting' && (
            <Button size="xs" variant="light" fullWidth onClick={onCover} aria-label={t('photos.pending.makeCoverLabel', { n })}>
              {t('photos.gallery.makeCover')}
            </Button>
          )
        )}
        {photo.review && onRequestReview && (
          <>
            <Text size="xs">{t('photos.review.automated')}</Text>
            <Button size="xs" fullWidth onClick={onRequestReview} loading={photo.review === 'asking'}>
              {t('photos.review.ask')}
            </Button>
          </>
        )}
        {onDiscard && photo.state !== 'uploading' && (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            fullWidth
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={onDiscard}
            aria-label={t('photos.pending.discardLabel', { n })}
          >
            {t('photos.pending.discard')}
          </Button>
        )}
      </Stack>
    </Card>
  );
}
