import { Anchor, Badge, Button, Group, Modal, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconEdit, IconExternalLink, IconPhoto, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AdSummary } from '#contract/profiles.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { deleteAd, MODEL_PROFILE_KEY, setAdActive } from '../api/model-profile-api.ts';

/**
 * Profile/Model Actions: the ad at a glance (review state, whether visitors see it) with its switch (SPEC §4
 * "El estado del anuncio ha cambiado!"), edit, photos, the public page when listed, and deletion after a
 * confirmation.
 */
export function AdActions({ ad, editTo, photosTo }: { ad: AdSummary; editTo: string; photosTo: string }) {
  const { t } = useTranslation();
  const lng = useLng();
  const queryClient = useQueryClient();
  const form = useApiForm([] as const);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<'toggle' | 'delete' | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: MODEL_PROFILE_KEY });

  const toggle = async (on: boolean) => {
    setBusy('toggle');
    const res = await form.run(() => setAdActive(ad.id, on));
    setBusy(null);
    if (res) handleAnswer({ status: res.status, data: res.data }, form.ui);
    await refresh();
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
        <Group justify="space-between" align="flex-start">
          <div style={{ minWidth: 0 }}>
            <Title order={2} size="h4">
              {ad.title}
            </Title>
            <Text size="sm" c="dimmed">
              {t('modelProfile.ad.where', { city: ad.city, state: ad.state })}
            </Text>
          </div>
          <Badge variant="light" color={ad.status === 'active' ? 'teal' : ad.status === 'pending' ? 'blue' : 'red'} tt="none">
            {t(`modelProfile.ad.status.${ad.status}`)}
          </Badge>
        </Group>
        <Text size="sm">{ad.is_listed ? t('modelProfile.ad.listed') : t('modelProfile.ad.notListed')}</Text>
        <Switch
          checked={ad.is_active}
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
