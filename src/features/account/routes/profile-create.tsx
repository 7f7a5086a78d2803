import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { Answer } from '#contract/answers.ts';
import { dashboardFor, modelProfileCreateSchema, publicistProfileCreateSchema } from '#contract/auth.ts';
import { CenteredCard } from '#src/components/centered-card.tsx';
import { FormError } from '#src/components/form-error.tsx';
import { PageLoader } from '#src/components/page-loader.tsx';
import { ResendVerificationButton } from '#src/components/resend-verification-button.tsx';
import type { ApiResponse } from '#src/lib/api-client.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { isVerified, useCurrentUser, useEndSession } from '#src/lib/session.ts';
import { createModelProfile, createPublicistProfile } from '../api/account-api.ts';

const FIELDS = ['display_name'] as const;

type Kind = 'model' | 'publicist';
const SCHEMAS = { model: modelProfileCreateSchema, publicist: publicistProfileCreateSchema } as const;
const MAX: Record<Kind, number | undefined> = {
  model: modelProfileCreateSchema.shape.display_name.maxLength ?? undefined,
  publicist: publicistProfileCreateSchema.shape.display_name.maxLength ?? undefined,
};
const CALLS: Record<Kind, (body: z.output<typeof modelProfileCreateSchema>) => Promise<ApiResponse<Answer>>> = {
  model: createModelProfile,
  publicist: createPublicistProfile,
};

/**
 * Minimal profile creation after verification (display name, or the agency's name). Behind RequireAuth for the
 * matching role; unverified users are asked to verify first. On success the server ends the session and the
 * answer sends to /login (SPEC §2).
 */
function ProfileCreate({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  usePageTitle(t(`profileCreate.${kind}.title`));
  const lng = useLng();
  const { data: user } = useCurrentUser();
  const endSession = useEndSession();
  const form = useApiForm(FIELDS);
  const [displayName, setDisplayName] = useState('');

  if (!user) return <PageLoader />;

  if (!isVerified(user)) {
    return (
      <CenteredCard title={t(`profileCreate.${kind}.heading`)}>
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('profileCreate.unverifiedTitle')}>
          {t('profileCreate.unverifiedText')}
        </Alert>
        <ResendVerificationButton fullWidth />
      </CenteredCard>
    );
  }

  if (user.has_profile) {
    return (
      <CenteredCard title={t(`profileCreate.${kind}.heading`)}>
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} aria-hidden />}>
          {t('profileCreate.alreadyExists')}
        </Alert>
        <Button component={Link} to={withLng(lng, dashboardFor(user.role))}>
          {t('account.menu.dashboard')}
        </Button>
      </CenteredCard>
    );
  }

  const submit = async () => {
    const input = form.validate(SCHEMAS[kind], { display_name: displayName });
    if (!input) return;
    const res = await form.run(() => CALLS[kind](input));
    if (!res) return;
    handleAnswer({ status: res.status, data: { ...res.data, redirect: undefined } }, form.ui);
    await endSession(withLng(lng, res.data?.redirect ?? '/login'));
  };

  return (
    <CenteredCard title={t(`profileCreate.${kind}.heading`)} intro={t(`profileCreate.${kind}.intro`)}>
      <form
        ref={form.formRef}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <FormError message={form.errors._} />
          <TextInput
            label={t(`profileCreate.${kind}.displayName`)}
            description={t(`profileCreate.${kind}.displayNameHint`, { max: MAX[kind] })}
            name="display_name"
            autoComplete={kind === 'publicist' ? 'organization' : 'nickname'}
            required
            maxLength={MAX[kind]}
            value={displayName}
            onChange={(e) => {
              setDisplayName(e.currentTarget.value);
              form.clearError('display_name');
            }}
            error={form.errors.display_name}
          />
          <Alert color="blue" variant="light">
            {t('profileCreate.reloginNote')}
          </Alert>
          <Button type="submit" fullWidth loading={form.pending}>
            {t('profileCreate.submit')}
          </Button>
        </Stack>
      </form>
    </CenteredCard>
  );
}

export const ModelProfileCreateRoute = () => <ProfileCreate kind="model" />;
export const PublicistProfileCreateRoute = () => <ProfileCreate kind="publicist" />;
