import { Alert, Button, Container, FileButton, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { API } from '#contract/routes.ts';
import { IconCamera, IconCircleCheck, IconClockHour4, IconRefresh } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useNavigate } from '#src/lib/router.tsx';
import type {
  VerificationCode,
  verificationCodeAnswerSchema,
  verificationStateSchema,
  verificationSubmittedSchema,
} from '#contract/profiles.ts';
import type { z } from 'zod';
import { FormError } from '#src/components/form-error.tsx';
import { PageLoader } from '#src/components/page-loader.tsx';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { MODEL_PROFILE_KEY } from '../api/model-profile-api.ts';
import { MODEL_PATHS } from '../lib/model-paths.ts';

const FIELDS = ['code', 'photo'] as const;

/**
 * Profile/Model Verify: ask for a code, photograph yourself holding it (the phone's front camera opens directly),
 * send it. The selfie goes to the staff queue only; the profile shows "Revisión pendiente" meanwhile.
 */
export function ModelVerifyRoute() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('verification.title'));
  const lng = useLng();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useApiForm(FIELDS);
  const state = useQuery({
    queryKey: ['profile', 'model', 'verification'],
    queryFn: ({ signal }) => apiGet<z.infer<typeof verificationStateSchema>>(API.modelVerification, signal).then((r) => r.data),
  });
  const [code, setCode] = useState<VerificationCode | null>(null);
  const [photo, setPhoto] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!photo) return;
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  if (state.isPending) return <PageLoader />;
  const current = state.data;
  const pending = current?.profile_status === 'pending' || current?.request?.status === 'pending';
  const active = current?.profile_status === 'active';

  const getCode = async () => {
    const res = await form.run(() =>
      apiRequest<z.infer<typeof verificationCodeAnswerSchema>>(API.modelVerificationCode, { method: 'POST' }),
    );
    if (res) setCode(res.data.data);
  };

  const submit = async () => {
    if (!code) return;
    if (!photo) {
      form.fail({ photo: t('validation.required') });
      return;
    }
    const body = new FormData();
    body.append('code', code.code);
    body.append('photo', photo, photo.name || 'selfie.jpg');
    const res = await form.run(() =>
      apiRequest<z.infer<typeof verificationSubmittedSchema>>(API.modelVerification, { method: 'POST', body }),
    );
    if (!res) return;
    handleAnswer({ status: res.status, data: res.data }, form.ui);
    await queryClient.invalidateQueries({ queryKey: MODEL_PROFILE_KEY });
    void navigate(withLng(lng, MODEL_PATHS.index));
  };

  const expires = code
    ? new Date(code.expires_at).toLocaleTimeString(i18n.resolvedLanguage?.replace('_', '-'), { timeStyle: 'short' })
    : '';

  return (
    <Container size={640} py="lg" px="md">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('verification.heading')}</Title>
          <Text mt={4}>{t('verification.intro')}</Text>
        </div>
        {active ? (
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} aria-hidden />}>
            {t('verification.active')}
          </Alert>
        ) : pending ? (
          <Alert color="blue" variant="light" icon={<IconClockHour4 size={18} aria-hidden />}>
            {t('verification.pending')}
          </Alert>
        ) : (
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <form
              ref={form.formRef}
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                void submit();
              }}
            >
              <Stack gap="md">
                {current?.request?.status === 'rejected' ? (
                  <Alert color="red" variant="light">
                    {t('verification.rejected')}
                  </Alert>
                ) : null}
                <Title order={2} size="h4">
                  {t('verification.steps.code')}
                </Title>
                {code ? (
                  <Stack gap={4} align="center">
                    <Text size="sm" c="dimmed" id="verification-code-label">
                      {t('verification.codeLabel')}
                    </Text>
                    <Text aria-labelledby="verification-code-label" fz={44} fw={800} ff="monospace" lts={6} data-testid="verification-code">
                      {code.code}
                    </Text>
                    <Text size="sm">{t('verification.codeExpires', { time: expires })}</Text>
                    <Button variant="subtle" size="xs" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void getCode()}>
                      {t('verification.newCode')}
                    </Button>
                  </Stack>
                ) : (
                  <Button onClick={() => void getCode()} loading={form.pending} style={{ alignSelf: 'flex-start' }}>
                    {t('verification.getCode')}
                  </Button>
                )}
                <Title order={2} size="h4" c={code ? undefined : 'dimmed'}>
                  {t('verification.steps.photo')}
                </Title>
                <Text size="sm">{t('verification.photoHint')}</Text>
                <Group>
                  <FileButton
                    onChange={setPhoto}
                    accept="image/jpeg,image/png,image/webp,image/heic,image/avif"
                    capture="user"
                    disabled={!code}
                  >
                    {(props) => (
                      <Button {...props} variant="light" leftSection={<IconCamera size={16} aria-hidden />} disabled={!code}>
                        {t('verification.takePhoto')}
                      </Button>
                    )}
                  </FileButton>
                  {photo ? <Text size="sm">{photo.name}</Text> : null}
                </Group>
                {preview ? <Image src={preview} alt={t('verification.photoLabel')} radius="md" mah={320} fit="contain" /> : null}
                <FormError message={form.errors.photo ?? form.errors.code ?? form.errors._} />
                <Group justify="space-between">
                  <Button component={Link} to={withLng(lng, MODEL_PATHS.index)} variant="default">
                    {t('verification.back')}
                  </Button>
                  <Button type="submit" disabled={!code || !photo} loading={form.pending && !!photo}>
                    {t('verification.send')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </Paper>
        )}
        {active || pending ? (
          <Button component={Link} to={withLng(lng, MODEL_PATHS.index)} variant="default" style={{ alignSelf: 'flex-start' }}>
            {t('verification.back')}
          </Button>
        ) : null}
      </Stack>
    </Container>
  );
}
