/**
 * The photo beside its matches (issue 29 point 2): other accounts' photos with their account, phone, city and the
 * distance between the hashes, closest first; removed-list entries show their ground only (no image is ever kept).
 */
import { Alert, Badge, Button, Group, Image, Modal, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MediaMatchList } from '#contract/media-matches.ts';
import { API } from '#contract/routes.ts';
import { apiGet } from '#src/lib/api-client.ts';
import type { RecentPhoto } from '../api/admin-api.ts';
import { ADMIN_KEY } from '../api/admin-api.ts';

export function PhotoMatchesButton({ photo }: { photo: RecentPhoto }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!photo.match_count) return null;
  return (
    <>
      <Button size="xs" variant="light" color="orange" onClick={() => setOpen(true)}>
        {t('reviewQueue.matches.open', { count: photo.match_count })}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={t('reviewQueue.matches.title', { name: photo.ad.title })}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        size="xl"
      >
        {open ? <MatchesSideBySide photo={photo} /> : null}
      </Modal>
    </>
  );
}

function MatchesSideBySide({ photo }: { photo: RecentPhoto }) {
  const { t } = useTranslation();
  const { data, isPending, isError } = useQuery({
    queryKey: [...ADMIN_KEY, 'matches', photo.media_id],
    queryFn: ({ signal }) => apiGet<MediaMatchList>(API.adminMediaMatches(photo.media_id), signal),
  });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Stack gap={4}>
        <Text fw={600} size="sm">
          {t('reviewQueue.matches.this', { name: photo.profile.display_name })}
        </Text>
        <Image src={photo.url} alt={t('admin.photos.alt', { title: photo.ad.title })} radius="sm" fit="contain" mah={320} />
      </Stack>
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('reviewQueue.matches.list')}>
        {isError ? <Alert color="red">{t('reviewQueue.matches.error')}</Alert> : null}
        {isPending ? <Skeleton height={160} /> : null}
        {data?.data.length === 0 ? <Text c="dimmed">{t('reviewQueue.matches.none')}</Text> : null}
        {data?.data.map((m, i) => (
          <Paper key={`${m.media_id ?? 'x'}-${i}`} withBorder p="xs" component="li">
            <Group align="flex-start" gap="sm" wrap="nowrap">
              {m.image_url ? (
                <Image
                  src={m.image_url}
                  alt={t('reviewQueue.matches.alt', { name: m.account_name ?? '' })}
                  w={110}
                  h={140}
                  fit="cover"
                  radius="sm"
                />
              ) : null}
              <Stack gap={2}>
                <Badge color={m.removed ? 'red' : 'orange'} variant="light" tt="none">
                  {t('reviewQueue.matches.distance', { distance: m.distance })}
                </Badge>
                {m.removed ? (
                  <Text size="sm">{t('reviewQueue.matches.removed', { ground: t(`statements.grounds.${m.ground ?? 'other'}`) })}</Text>
                ) : (
                  <>
                    <Text size="sm">{t('reviewQueue.matches.account', { name: m.account_name ?? '—' })}</Text>
                    <Text size="sm">{t('reviewQueue.matches.phone', { phone: m.phone ?? '—' })}</Text>
                    <Text size="sm">{t('reviewQueue.matches.city', { city: m.city ?? '—' })}</Text>
                  </>
                )}
              </Stack>
            </Group>
          </Paper>
        ))}
      </Stack>
    </SimpleGrid>
  );
}
