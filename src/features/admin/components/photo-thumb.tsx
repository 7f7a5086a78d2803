import { Image as MantineImage, Stack, Text } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { AdminPhoto } from '../api/admin-api.ts';

const score = (n: number) => n.toFixed(2);

/** A photo with its moderation scores (staff see unlisted photos through /media). */
export function PhotoThumb({ photo, alt }: { photo: AdminPhoto; alt: string }) {
  const { t } = useTranslation();
  const s = photo.moderation?.scores;
  return (
    <Stack gap={4} w={140}>
      <MantineImage src={photo.url} srcSet={photo.srcset} sizes="140px" alt={alt} w={140} h={175} fit="cover" radius="sm" loading="lazy" />
      <Text size="xs" c="dimmed">
        {s
          ? t('admin.photos.scores', {
              sexual_activity: score(s.sexual_activity),
              sexual_display: score(s.sexual_display),
              erotica: score(s.erotica),
            })
          : t('admin.photos.noScores')}
      </Text>
    </Stack>
  );
}
