/**
 * A photo or a verification selfie beside its matches (issue 29 points 2 and 4): other accounts' photos and selfies
 * with their account, phone, city and the distance between the hashes, closest first; removed-list entries show their
 * ground only (no image is ever kept).
 */
import { Alert, Badge, Button, Group, Image, Modal, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { MediaMatch, MediaMatchList } from '#contract/media-matches.ts';
import { API } from '#contract/routes.ts';
import { apiGet } from '#src/lib/api-client.ts';
import { ADMIN_KEY, type AdminVerification, type RecentPhoto } from '../api/admin-api.ts';
import { PrivateImage } from './private-image.tsx';

/** The photo queue's button: the photo's matches are fetched when the dialog opens. */
export function PhotoMatchesButton({ photo }: { photo: RecentPhoto }) {
  const { t } = useTranslation();
  return (
    <MatchesButton count={photo.match_count} title={t('reviewQueue.matches.title', { name: photo.ad.title })}>
      <SideBySide
        label={t('reviewQueue.matches.this', { name: photo.profile.display_name })}
        image={<Image src={photo.url} alt={t('admin.photos.alt', { title: photo.ad.title })} radius="sm" fit="contain" mah={320} />}
        list={<FetchedMatches mediaId={photo.media_id} />}
      />
    </MatchesButton>
  );
}

/** The verification queue's button: a selfie's matches come with the request (the queue's answer). */
export function SelfieMatchesButton({ verification }: { verification: AdminVerification }) {
  const { t } = useTranslation();
  const name = verification.profile.display_name;
  return (
    <MatchesButton count={verification.match_count} title={t('reviewQueue.matches.title', { name })}>
      <SideBySide
        label={t('reviewQueue.matches.thisSelfie', { name })}
        image={
          verification.selfie_url ? (
            <PrivateImage
              url={verification.selfie_url}
              alt={t('admin.verifications.selfie', { name })}
              unavailable={t('admin.verifications.noSelfie')}
              w={256}
              h={320}
              fit="contain"
            />
          ) : (
            <Text c="dimmed">{t('admin.verifications.noSelfie')}</Text>
          )
        }
        list={<MatchList data={verification.matches} isPending={false} isError={false} />}
      />
    </MatchesButton>
  );
}

function MatchesButton({ count, title, children }: { count: number; title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!count) return null;
  return (
    <>
      <Button size="xs" variant="light" color="orange" onClick={() => setOpen(true)} data-testid="matches-open">
        {t('reviewQueue.matches.open', { count })}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={title} closeButtonProps={{ 'aria-label': t('common.close') }} size="xl">
        {open ? children : null}
      </Modal>
    </>
  );
}

function SideBySide({ label, image, list }: { label: string; image: ReactNode; list: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Stack gap={4}>
        <Text fw={600} size="sm">
          {label}
        </Text>
        {image}
      </Stack>
      {list}
    </SimpleGrid>
  );
}

function FetchedMatches({ mediaId }: { mediaId: number }) {
  const { data, isPending, isError } = useQuery({
    queryKey: [...ADMIN_KEY, 'matches', mediaId],
    queryFn: ({ signal }) => apiGet<MediaMatchList>(API.adminMediaMatches(mediaId), signal),
  });
  return <MatchList data={data?.data} isPending={isPending} isError={isError} />;
}

function MatchList({ data, isPending, isError }: { data: MediaMatch[] | undefined; isPending: boolean; isError: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('reviewQueue.matches.list')}>
      {isError ? <Alert color="red">{t('reviewQueue.matches.error')}</Alert> : null}
      {isPending ? <Skeleton height={160} /> : null}
      {data?.length === 0 ? <Text c="dimmed">{t('reviewQueue.matches.none')}</Text> : null}
      {data?.map((m, i) => (
        <Paper key={`${m.media_id ?? 'x'}-${m.verification_id ?? 'x'}-${i}`} withBorder p="xs" component="li" data-testid="match">
          <Group align="flex-start" gap="sm" wrap="nowrap">
            <MatchImage match={m} />
            <Stack gap={2}>
              <Badge color={m.removed ? 'red' : 'orange'} variant="light" tt="none">
                {t('reviewQueue.matches.distance', { distance: m.distance })}
              </Badge>
              {m.removed ? (
                <Text size="sm">{t('reviewQueue.matches.removed', { ground: t(`statements.grounds.${m.ground ?? 'other'}`) })}</Text>
              ) : (
                <>
                  {m.verification_id ? <Text size="sm">{t('reviewQueue.matches.kindSelfie')}</Text> : null}
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
  );
}

/** Another account's photo (a staff-visible /media URL) or selfie (private: fetched with the API's headers). */
function MatchImage({ match }: { match: MediaMatch }) {
  const { t } = useTranslation();
  if (!match.image_url) return null;
  const name = match.account_name ?? '';
  if (match.verification_id)
    return (
      <PrivateImage
        url={match.image_url}
        alt={t('reviewQueue.matches.selfieAlt', { name })}
        unavailable={t('admin.verifications.noSelfie')}
        w={110}
        h={140}
        fit="cover"
      />
    );
  return <Image src={match.image_url} alt={t('reviewQueue.matches.alt', { name })} w={110} h={140} fit="cover" radius="sm" />;
}
