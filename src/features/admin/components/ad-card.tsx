/** One ad in the ads review queue: what staff must see to decide (status, who lists it and their consent, text, photos) and the decisions its status allows. */
import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { type AdminAd } from '../api/admin-api.ts';
import { StatusBadge } from './admin-page.tsx';
import { actionsFrom, DecisionButtons, type DecisionTarget } from './decision-dialog.tsx';
import { PhotoThumb } from './photo-thumb.tsx';
import { WRAPPING_BADGE } from './wrapping-badge.ts';

export function AdCard({ ad, onDecide }: { ad: AdminAd; onDecide: (t: DecisionTarget) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {ad.title}
          </Title>
          <Group gap={6}>
            <StatusBadge status={ad.status} />
            <Badge variant="outline" color="gray" tt="none" classNames={WRAPPING_BADGE}>
              {ad.edited ? t('admin.ads.edited') : t('admin.ads.new')}
            </Badge>
            <Badge variant="light" color={ad.is_listed ? 'teal' : 'gray'} tt="none" classNames={WRAPPING_BADGE}>
              {ad.is_listed ? t('admin.ads.listed') : t('admin.ads.notListed')}
            </Badge>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('admin.ads.profile', { name: ad.profile.display_name, status: t(`statuses.${ad.profile.status}`) })} ·{' '}
          {t('admin.ads.place', { section: ad.section.name, city: ad.city })}
          {ad.is_active ? '' : ` · ${t('admin.ads.off')}`}
        </Text>
        {ad.publicist ? (
          // A publicist's model: whose agency it is, and whether the model has consented to the listing yet.
          <Group gap={6} data-testid="ad-agency">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {t('admin.ads.agency', { name: ad.publicist.display_name })}
            </Text>
            <Badge variant="light" color={ad.profile.consent_status === 'given' ? 'teal' : 'yellow'} tt="none" classNames={WRAPPING_BADGE}>
              {t('admin.ads.consent', {
                status: t(`admin.consent.${ad.profile.consent_status}`, { defaultValue: ad.profile.consent_status }),
              })}
            </Badge>
          </Group>
        ) : null}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {ad.description}
        </Text>
        <Text size="sm" fw={600}>
          {t('admin.ads.photos')}
        </Text>
        {ad.photos.length ? (
          <Group gap="sm">
            {ad.photos.map((p) => (
              <PhotoThumb key={p.media_id} photo={p} alt={t('admin.photos.alt', { title: ad.title })} />
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('admin.ads.noPhotos')}
          </Text>
        )}
        <DecisionButtons subjectType="ad" subjectId={ad.id} name={ad.title} actions={actionsFrom('ad', ad.status)} onDecide={onDecide} />
      </Stack>
    </Paper>
  );
}
