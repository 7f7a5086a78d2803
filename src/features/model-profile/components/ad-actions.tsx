import { Anchor, Badge, Box, Button, Center, Group, Modal, Paper, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { IconEdit, IconExternalLink, IconPhoto, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import type { AdSummary } from '#contract/profiles.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { reportQueueableWrite } from '#src/offline/report-write.ts';
import { NEEDS_ATTENTION, useOutboxOps } from '#src/offline/use-outbox.ts';
import { PushInvitation } from '#src/components/push-settings/push-invitation.tsx';
import { adPhotosQueryOptions, deleteAd, MODEL_PROFILE_KEY } from '../api/model-profile-api.ts';
import { gapAction, type ListingGap } from '../lib/listing-gap.ts';
import { OWN_MODEL_AD, queueableAdSwitch } from '#src/components/model-ad-form/model-ad-writes.ts';

const THUMB = { w: 96, h: 128 };

/** The ad's cover as visitors see it in the listing; a placeholder while there is none. */
function AdCover({ adId, photos, name }: { adId: number; photos: number; name: string }) {
  const { t } = useTranslation();
  const images = useQuery({ ...adPhotosQueryOptions(adId), enabled: photos > 0 });
  const cover = images.data?.find((i) => i.is_cover) ?? images.data?.[0];
  if (photos > 0 && images.isPending) return <Skeleton w={THUMB.w} h={THUMB.h} radius="md" style={{ flexShrink: 0 }} />;
  if (!cover) {
    return (
      <Center
        w={THUMB.w}
        h={THUMB.h}
        bg="var(--mantine-color-default-hover)"
        c="dimmed"
        style={{ borderRadius: 'var(--mantine-radius-md)', flexShrink: 0 }}
        data-testid="ad-cover-placeholder"
      >
        <IconPhoto size={32} aria-hidden />
      </Center>
    );
  }
  return (
    <Box
      component="img"
      src={cover.url}
      srcSet={cover.srcset}
      sizes={`${THUMB.w}px`}
      width={THUMB.w}
      height={THUMB.h}
      alt={t('listings.coverAlt', { name })}
      data-testid="ad-cover"
      style={{ objectFit: 'cover', borderRadius: 'var(--mantine-radius-md)', flexShrink: 0 }}
    />
  );
}

/** Says why visitors do not see the ad and, where she can act, links to what to do (issue 24 point 12). */
function NotListed({ gap, verifyTo }: { gap: ListingGap; verifyTo: string | undefined }) {
  const { t } = useTranslation();
  const lng = useLng();
  const action = gapAction(gap);
  return (
    <Stack gap={4} align="flex-start" data-testid="ad-not-listed">
      <Text size="sm">{t('modelProfile.ad.notListed')}</Text>
      {gap ? <Text size="sm">{t(`modelProfile.ad.notListedWhy_${gap}`)}</Text> : null}
      {action === 'verify' && verifyTo ? (
        <Button component={Link} to={verifyTo} size="xs" variant="light">
          {t('modelProfile.ad.notListedWhy_verify')}
        </Button>
      ) : action === 'statements' ? (
        <Anchor component={Link} to={withLng(lng, '/statements')} size="sm">
          {t('modelProfile.ad.notListedWhy_statements')}
        </Anchor>
      ) : null}
    </Stack>
  );
}

/**
 * Profile/Model Actions: the ad at a glance (review state, whether visitors see it) with its switch (SPEC §4
 * "El estado del anuncio ha cambiado!"), edit, photos, the public page when listed, and deletion after a
 * confirmation.
 */
export function AdActions({
  ad,
  name,
  editTo,
  photosTo,
  editScope,
  gap = null,
  verifyTo,
}: {
  ad: AdSummary;
  name: string;
  editTo: string;
  photosTo: string;
  /** The outbox scope of the profile's edits: the card says "changes not yet sent" while any wait. */
  editScope?: string;
  /** Why visitors do not see the ad (lib/listing-gap.ts), and where she verifies her identity. */
  gap?: ListingGap;
  verifyTo?: string;
}) {
  const { t } = useTranslation();
  const lng = useLng();
  const queryClient = useQueryClient();
  const form = useApiForm([] as const);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<'toggle' | 'delete' | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: MODEL_PROFILE_KEY });

  const user = useCurrentUser().data;
  const queued = useOutboxOps(user?.id);
  const pendingOps = (queued ?? []).filter((o) => o.scope === OWN_MODEL_AD.switchScope(ad.id) || o.scope === editScope);
  // The switch shows the position the user chose while it waits to be sent.
  const queuedSwitch = pendingOps.filter((o) => o.kind === 'ad.activate').at(-1);
  const shownActive = queuedSwitch ? queuedSwitch.meta?.on === true : ad.is_active;

  const toggle = async (on: boolean) => {
    if (!user) return;
    setBusy('toggle');
    const queued = await reportQueueableWrite(
      () => queueableAdSwitch(OWN_MODEL_AD, user.id, { id: ad.id, summary: ad.title }, on, MODEL_PROFILE_KEY),
      form.ui,
      t,
    ).finally(() => setBusy(null));
    if (!queued) await refresh();
  };

  const remove = async () => {
    setBusy('delete');
    const res = await form.run(() => deleteAd(ad.id));
    setBusy(null);
    setConfirming(false);
    if (res) handleAnswer({ status: res.status, data: res.data }, form.ui);
    await refresh();
  };

  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="sm">
        <Group align="flex-start" wrap="nowrap" gap="md">
          <AdCover adId={ad.id} photos={ad.photos} name={name} />
          <Stack gap={6} align="flex-start" style={{ minWidth: 0 }}>
            <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
              {ad.title}
            </Title>
            <Text size="sm" c="dimmed">
              {t('modelProfile.ad.where', { city: ad.city, state: ad.state })}
            </Text>
            <Badge variant="light" color={ad.status === 'active' ? 'teal' : ad.status === 'pending' ? 'blue' : 'red'} tt="none">
              {t(`modelProfile.ad.status.${ad.status}`)}
            </Badge>
          </Stack>
        </Group>
        {ad.is_listed ? <Text size="sm">{t('modelProfile.ad.listed')}</Text> : <NotListed gap={gap} verifyTo={verifyTo} />}
        {/* Submitted for review: the moment a push about the decision is worth asking for (issue 25). */}
        <PushInvitation show={ad.status === 'pending'} reason="review" />
        {pendingOps.length ? (
          <Group gap={6} data-testid="ad-pending">
            <Badge variant="outline" color={pendingOps.some((o) => NEEDS_ATTENTION.includes(o.status)) ? 'orange' : 'blue'} tt="none">
              {t('outbox.pendingChanges')}
            </Badge>
            <Anchor component={Link} to={withLng(lng, '/sync')} size="xs">
              {t('outbox.page.title')}
            </Anchor>
          </Group>
        ) : null}
        <Switch
          checked={shownActive}
          disabled={busy !== null}
          onChange={(e) => void toggle(e.currentTarget.checked)}
          label={t('modelProfile.ad.active')}
          description={t('modelProfile.ad.activeHint')}
        />
        <Group gap="xs">
          <Button component={Link} to={editTo} leftSection={<IconEdit size={16} aria-hidden />} variant="light">
            {t('modelProfile.ad.edit')}
          </Button>
          <Button component={Link} to={photosTo} leftSection={<IconPhoto size={16} aria-hidden />} variant="light">
            {t('modelProfile.ad.photos', { count: ad.photos })}
          </Button>
          {ad.is_listed ? (
            <Anchor component={Link} to={withLng(lng, `/models/${ad.id}`)} size="sm">
              <Group gap={4} component="span">
                {t('modelProfile.ad.view')}
                <IconExternalLink size={14} aria-hidden />
              </Group>
            </Anchor>
          ) : null}
          <Button
            color="red"
            variant="subtle"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => setConfirming(true)}
            ml="auto"
          >
            {t('modelProfile.ad.delete')}
          </Button>
        </Group>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('modelProfile.ad.deleteTitle')} centered>
        <Stack>
          <Text size="sm">{t('modelProfile.ad.deleteText', { title: ad.title })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('modelProfile.ad.cancel')}
            </Button>
            <Button color="red" loading={busy === 'delete'} onClick={() => void remove()}>
              {t('modelProfile.ad.deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
