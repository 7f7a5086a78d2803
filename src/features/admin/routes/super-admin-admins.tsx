/** Super admin: the administrators, listed, and the form that creates one. */
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { API } from '#contract/routes.ts';
import { PasswordField } from '#src/components/password-field.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { createAdminSchema } from '#contract/auth.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { ADMIN_KEY, adminListOptions, createAdmin, type AdminUser } from '../api/admin-api.ts';
import { AdminPage, DateText, StatusBadge } from '../components/admin-page.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { ResponsiveTable, type Column } from '../components/responsive-table.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

const ADMIN_FIELDS = ['name', 'email', 'password', 'password_confirmation'] as const;
type AdminField = (typeof ADMIN_FIELDS)[number];

function CreateAdminForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const empty = { name: '', email: '', password: '', password_confirmation: '' };
  const [values, setValues] = useState<Record<AdminField, string>>(empty);
  const { formRef, errors, pending, validate, run, clearError, ui } = useApiForm(ADMIN_FIELDS);
  const field = (name: AdminField) => ({
    value: values[name],
    error: errors[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const v = e.currentTarget.value;
      setValues((prev) => ({ ...prev, [name]: v }));
      clearError(name);
    },
  });
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = validate(createAdminSchema, values);
    if (!parsed) return;
    const res = await run(() => createAdmin(parsed));
    if (!res) return;
    handleAnswer(res, ui);
    setValues(empty);
    await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
  };
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="create-admin">
      <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm" maw={480}>
          <Title order={2} size="h4" id="create-admin">
            {t('admin.admins.create')}
          </Title>
          <TextInput label={t('admin.admins.name')} autoComplete="off" required maxLength={120} {...field('name')} />
          <TextInput label={t('admin.admins.email')} type="email" autoComplete="off" required maxLength={254} {...field('email')} />
          <PasswordField label={t('admin.admins.password')} autoComplete="new-password" required {...field('password')} />
          <PasswordField
            label={t('admin.admins.passwordConfirmation')}
            autoComplete="new-password"
            required
            {...field('password_confirmation')}
          />
          {errors._ ? (
            <Text c="red" size="sm" data-form-error tabIndex={-1}>
              {errors._}
            </Text>
          ) : null}
          <Group>
            <Button type="submit" loading={pending}>
              {t('admin.admins.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

export function SuperAdminAdminsRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams();
  const { data, isPending, isError } = useQuery(
    adminListOptions<AdminUser>(API.superAdminAdmins, { search: params.search, page: params.page }),
  );
  const columns: Column<AdminUser>[] = [
    { key: 'name', label: t('admin.columns.name'), render: (u) => u.name },
    { key: 'email', label: t('admin.columns.email'), render: (u) => u.email },
    { key: 'role', label: t('admin.columns.role'), render: (u) => t(`account.roles.${u.role}`) },
    { key: 'status', label: t('admin.columns.status'), render: (u) => <StatusBadge status={u.status} /> },
    { key: 'created', label: t('admin.columns.created'), render: (u) => <DateText value={u.created_at} /> },
  ];
  return (
    <AdminPage title={t('admin.admins.title')} heading={t('admin.admins.heading')}>
      <CreateAdminForm />
      <ListFilters params={params} update={update} />
      <ResponsiveTable
        caption={t('admin.admins.heading')}
        columns={columns}
        rows={data?.data}
        rowKey={(u) => u.id}
        title={(u) => u.name}
        loading={isPending}
        error={failedWithNothingSaved({ data, isError })}
      />
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
    </AdminPage>
  );
}
