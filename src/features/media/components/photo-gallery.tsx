/** The ad's current photos, cover first: each can be made the cover (exactly one is) or deleted, after a confirmation. */
import { Badge, Button, Card, Group, Image as MantineImage, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconStar, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Image } from '#contract/listings.ts';

/** Two columns on phones, up to four on desktops (see SimpleGrid below). */
const SIZES = '(min-width: 62em) 240px, (min-width: 36em) 33vw, 50vw';

export interface PhotoGalleryProps {
  photos: Image[];
  /** The photo whose change is being sent, if any (its buttons show a spinner; the others wait). */
  pending?: { mediaId: number; action: 'cover' | 'delete' } | undefined;
  onMakeCover: (mediaId: number) => void;
  onDelete: (mediaId: number) => void;
}

export function PhotoGallery({ photos, pending, onMakeCover, onDelete }: PhotoGalleryProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState<Image | undefined>(undefined);

  if (photos.length === 0) {
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
          return (
            <Card
              component="li"
              key={photo.media_id}
              withBorder
              padding="xs"
              radius="md"
              data-testid="gallery-photo"
              data-cover={photo.is_cover || undefined}
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
                <Button
                  size="xs"
                  variant="light"
                  fullWidth
                  disabled={photo.is_cover || !!pending}
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
                  disabled={!!pending}
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
