/**
 * Photos the automated check refused and whose owner asked a person to look (issue 24 B7), at the top of the photo
 * queue: the photo (private: fetched with the API headers, shown from a blob URL), the rule it was refused under,
 * its scores beside the thresholds, and approve / reject with the words the model will read.
 */
import { Alert, Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { photoReviewDecisionSchema, type AdminPhotoReview } from '#contract/photo-reviews.ts';
import { API } from '#contract/routes.ts';
import { apiRequest } from '#src/lib/api-client.ts';
import type { Answer } from '#contract/answers.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { ADMIN_KEY, adminListOptions } from '../api/admin-api.ts';
import { DateText } from './admin-page.tsx';
import { PrivateImage } from './private-image.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

const pct = (n: number) => `${Math.round(n * 100)} %`;

function Request({ r, onDecide }: { r: AdminPhotoReview; onDecide: (d: { id: number; action: 'approve' | 'reject' }) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const rules = ['sexual_activity', 'sexual_display', 'erotica'] as const;
  return (
    <Paper withBorder p="md" radius="md" component="li" aria-labelledby={headingId} data-testid="photo-review-request">
      <Stack gap="sm">
        <PrivateImage
          url={r.image_url}
          alt={t('admin.photos.alt', { title: r.ad.title })}
          unavailable={t('admin.photoReviews.noPhoto')}
          w={200}
          h={250}
          fit="contain"
          bg="gray.1"
        />
        <Title order={3} size="h5" id={headingId} style={{ overflowWrap: 'anywhere' }}>
          {r.ad.title} · {r.profile.display_name}
        </Title>
        <Group gap={6}>
          <Badge color="red" variant="light" tt="none">
            {t('admin.photoReviews.rule', { rule: t(`media.rules.${r.rule}`) })}
          </Badge>
          <Badge color="gray" variant="outline" tt="none">
            {t('admin.photoReviews.automated', { provider: r.provider })}
          </Badge>
        </Group>
        <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rules.map((k) => (
            <Text key={k} size="sm" component="li" fw={k === r.rule ? 700 : 400}>
              {t('admin.photoReviews.score', {
                rule: t(`media.rules.${k}`),
                score: pct(r.scores[k]),
                threshold: r.thresholds ? pct(r.thresholds[k]) : '—',
              })}
            </Text>
          ))}
        </Stack>
        <Text size="xs" c="dimmed">
          {t('admin.photoReviews.requestedAt')} <DateText value={r.requested_at ?? r.created_at} />
        </Text>
        {r.status === 'requested' ? (
          <Group gap="xs">
            <Button size="xs" color="teal" onClick={() => onDecide({ id: r.id, action: 'approve' })}>
              {t('admin.photoReviews.approve')}
            </Button>
            <Button size="xs" color="red" variant="light" onClick={() => onDecide({ id: r.id, action: 'reject' })}>
              {t('admin.photoReviews.reject')}
            </Button>
          </Group>
        ) : (
          <Badge color={r.status === 'approved' ? 'teal' : 'red'} variant="light" tt="none">
            {t(`admin.photoReviews.status.${r.status}`)}
          </Badge>
        )}
      </Stack>
    </Paper>
  );
}

const FIELDS = ['text', 'action'] as const;

function DecideDialog({ target, onClose }: { target: { id: number; action: 'approve' | 'reject' } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const { formRef, errors, pending, validate, run, clearError, reset, ui } = useApiForm(FIELDS);
  const label = target ? t(`admin.photoReviews.${target.action}`) : '';
  const close = () => {
    setText('');
    reset();
    onClose();
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!target) return;
    const values = validate(photoReviewDecisionSchema, { action: target.action, text });
    if (!values) return;
    const res = await run(() =>
      apiRequest<Answer>(API.adminPhotoReviewDecision(target.id), { method: 'POST', body: values, idempotencyKey: crypto.randomUUID() }),
    );
    if (!res) return;
    handleAnswer(res, ui);
    await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    close();
  };
  return (
    <Modal opened={target !== null} onClose={close} closeButtonProps={{ 'aria-label': t('common.close') }} title={label} centered size="lg">
      <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          <Textarea
            label={t('admin.photoReviews.textLabel')}
            description={t('admin.photoReviews.textHint')}
            autosize
            minRows={3}
            maxLength={2000}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              clearError('text');
            }}
            error={errors.text}
            required
          />
          {errors._ ? (
            <Text c="red" size="sm" data-form-error tabIndex={-1}>
              {errors._}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('admin.dialog.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {t('admin.dialog.confirm', { action: label })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The requests waiting for a person; nothing at all when there are none (the usual photo queue follows). */
export function PhotoReviewRequests() {
  const { t } = useTranslation();
  const headingId = useId();
  const [target, setTarget] = useState<{ id: number; action: 'approve' | 'reject' } | null>(null);
  const { data, isError } = useQuery(adminListOptions<AdminPhotoReview>(API.adminPhotoReviews, { status: 'requested' }));
  if (failedWithNothingSaved({ data, isError })) return <Alert color="red">{t('admin.list.error')}</Alert>;
  if (!data?.data.length) return null;
  return (
    <section aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('admin.photoReviews.heading', { count: data.meta.total })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('admin.photoReviews.intro')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.data.map((r) => (
            <Request key={r.id} r={r} onDecide={setTarget} />
          ))}
        </SimpleGrid>
      </Stack>
      <DecideDialog target={target} onClose={() => setTarget(null)} />
    </section>
  );
}
