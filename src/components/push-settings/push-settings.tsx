import { Alert, Button, Group, List, Loader, Modal, Stack, Switch, Text } from '@mantine/core';
import { IconDeviceMobile, IconDeviceDesktop, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { toLocaleTag } from '#contract/languages.ts';
import { PUSH_CATEGORIES, type PushDevice } from '#contract/push.ts';
import { useLng } from '#src/lib/paths.ts';
import {
  devicesQueryOptions,
  preferencesQueryOptions,
  PUSH_KEY,
  removeDevice,
  savePreferences,
  useThisDevicePush,
} from '#src/lib/push/push-client.ts';

/**
 * This device's notifications on/off (issue 25). Explains instead when the browser cannot (iOS outside the installed
 * app: add it to the home screen first) or the user blocked them (allow them again in the browser's settings).
 */
export function PushDeviceSwitch({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { support, state, loading, busy, error, toggle } = useThisDevicePush();
  if (support === 'needs-install') return <Text size="sm">{t('push.needsInstall')}</Text>;
  // In the bell's menu a browser without Web Push gets no line about it; the profile says why there is no switch.
  if (support === 'unsupported') return compact ? null : <Text size="sm">{t('push.unsupported')}</Text>;
  if (loading) return <Loader size="sm" role="status" aria-label={t('push.loading')} />;
  const denied = state?.permission === 'denied';
  return (
    <Stack gap={6}>
      <Switch
        data-testid="push-device-switch"
        label={t('push.thisDevice')}
        description={compact ? undefined : t('push.thisDeviceHint')}
        checked={!!state?.on}
        disabled={busy || denied}
        onChange={(e) => void toggle(e.currentTarget.checked)}
        thumbIcon={busy ? <Loader size={10} aria-hidden /> : undefined}
      />
      {denied && <Text size="sm">{t('push.denied')}</Text>}
      {error && (
        <Text size="sm" c="red" role="alert">
          {t('push.failed')}
        </Text>
      )}
    </Stack>
  );
}

function deviceLabel(d: PushDevice, t: (k: string, o?: Record<string, unknown>) => string, locale: string): string {
  const kind = d.current
    ? t(d.device_type ? 'push.devices.thisPhone' : 'push.devices.thisComputer')
    : t(d.device_type ? 'push.devices.phone' : 'push.devices.computer');
  const what = [d.browser, d.os].filter(Boolean).join(t('push.devices.on'));
  const since = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(d.created_at));
  return [kind, what, t('push.devices.since', { date: since })].filter(Boolean).join(' · ');
}

/** The profile's "Notificaciones" section: this device, the user's devices, what is pushed, and previews. */
export function PushSettings({ role }: { role?: string | undefined } = {}) {
  const { t } = useTranslation();
  const locale = toLocaleTag(useLng());
  const queryClient = useQueryClient();
  const devices = useQuery(devicesQueryOptions());
  const prefs = useQuery(preferencesQueryOptions());
  const save = useMutation({
    mutationFn: savePreferences,
    onSuccess: (data) => queryClient.setQueryData(preferencesQueryOptions().queryKey, data),
  });
  const [confirming, setConfirming] = useState<PushDevice | null>(null);
  const remove = useMutation({
    mutationFn: removeDevice,
    onSettled: () => {
      setConfirming(null);
      return queryClient.invalidateQueries({ queryKey: PUSH_KEY });
    },
  });
  const label: Record<(typeof PUSH_CATEGORIES)[number], string> = {
    support_chat: t('push.categories.supportChat'),
    decisions: t('push.categories.decisions'),
    consent: t('push.categories.consent'),
    saved_searches: t('push.categories.savedSearches'),
  };

  return (
    <Stack gap="md" data-testid="push-settings">
      <PushDeviceSwitch />
      <div>
        <Text fw={600} id="push-devices-title">
          {t('push.devices.heading')}
        </Text>
        {devices.isLoading ? (
          <Loader size="sm" role="status" aria-label={t('push.loading')} />
        ) : devices.isError ? (
          <Alert color="red">{t('push.loadError')}</Alert>
        ) : !devices.data?.length ? (
          <Text size="sm" c="dimmed" data-testid="push-devices-empty">
            {t('push.devices.none')}
          </Text>
        ) : (
          <List listStyleType="none" spacing="xs" aria-labelledby="push-devices-title" data-testid="push-devices">
            {devices.data.map((d) => (
              <List.Item key={d.id} data-testid="push-device" data-current={d.current || undefined}>
                <Group gap="xs" wrap="wrap" justify="space-between">
                  <Group gap="xs" wrap="nowrap" style={{ flex: '1 1 14rem', minWidth: 0 }}>
                    {d.device_type ? <IconDeviceMobile size={18} aria-hidden /> : <IconDeviceDesktop size={18} aria-hidden />}
                    <Text size="sm">{deviceLabel(d, t, locale)}</Text>
                  </Group>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    onClick={() => setConfirming(d)}
                    aria-label={t('push.devices.removeLabel', { device: deviceLabel(d, t, locale) })}
                  >
                    {t('push.devices.remove')}
                  </Button>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
        <Modal
          opened={!!confirming}
          onClose={() => setConfirming(null)}
          title={t('push.devices.removeTitle')}
          closeButtonProps={{ 'aria-label': t('common.close') }}
          centered
        >
          <Stack>
            <Text size="sm">{confirming ? t('push.devices.removeText', { device: deviceLabel(confirming, t, locale) }) : null}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                {t('push.devices.cancel')}
              </Button>
              <Button color="red" loading={remove.isPending} onClick={() => confirming && remove.mutate(confirming)}>
                {t('push.devices.remove')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      </div>
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <Text component="legend" fw={600} mb="xs">
          {t('push.categories.heading')}
        </Text>
        {prefs.isError ? (
          <Alert color="red">{t('push.loadError')}</Alert>
        ) : (
          <Stack gap="xs">
            {/* Consent answers only ever reach a publicist. */}
            {PUSH_CATEGORIES.filter((c) => c !== 'consent' || role === 'publicist').map((c) => (
              <Switch
                key={c}
                label={label[c]}
                checked={prefs.data?.[c] ?? true}
                disabled={!prefs.data || save.isPending}
                onChange={(e) => save.mutate({ [c]: e.currentTarget.checked })}
              />
            ))}
            <Switch
              label={t('push.hidePreviews')}
              description={t('push.hidePreviewsHint')}
              checked={prefs.data ? !prefs.data.previews : false}
              disabled={!prefs.data || save.isPending}
              onChange={(e) => save.mutate({ previews: !e.currentTarget.checked })}
            />
          </Stack>
        )}
        {save.isError && (
          <Text size="sm" c="red" role="alert">
            {t('push.failed')}
          </Text>
        )}
      </fieldset>
    </Stack>
  );
}
