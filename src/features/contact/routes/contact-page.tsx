/**
 * The contact page: visitors write to the site (name, e-mail, subject, message; a hidden honeypot and the time the
 * form opened keep bots out); a signed-in user writes to the admins instead, as themselves. Success is confirmed in place.
 */
import { Alert, Anchor, Button, Container, Group, Paper, Skeleton, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconCircleCheck, IconSend } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { adminMessageSchema, CONTACT_MESSAGE_MAX, contactSchema } from '#contract/contact.ts';
import { FormError } from '#src/components/form-error.tsx';
import { useApiForm } from '#src/lib/forms.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng } from '#src/lib/paths.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { sendContact, sendToAdmin } from '../api/contact-api.ts';

const FIELDS = ['name', 'email', 'subject', 'message'] as const;

function Sent({ onAgain }: { onAgain: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      color="teal"
      variant="light"
      icon={<IconCircleCheck size={18} aria-hidden />}
      title={t('contact.page.sentTitle')}
      role="status"
      data-testid="contact-sent"
    >
      <Stack gap="sm">
        <Text size="sm">{t('contact.page.sentText')}</Text>
        <Group>
          <Button variant="light" size="xs" onClick={onAgain}>
            {t('contact.page.another')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** Subject and message: the part both forms share. */
function SubjectAndMessage({
  form,
  subject,
  setSubject,
  message,
  setMessage,
}: {
  form: ReturnType<typeof useApiForm<(typeof FIELDS)[number]>>;
  subject: string;
  setSubject: (v: string) => void;
  message: string;
  setMessage: (v: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        label={t('contact.page.subject')}
        withAsterisk
        maxLength={160}
        value={subject}
        onChange={(e) => {
          setSubject(e.currentTarget.value);
          form.clearError('subject');
        }}
        error={form.errors.subject}
      />
      <Textarea
        label={t('contact.page.message')}
        description={t('contact.page.messageHelp')}
        withAsterisk
        autosize
        minRows={5}
        maxRows={14}
        maxLength={CONTACT_MESSAGE_MAX}
        value={message}
        onChange={(e) => {
          setMessage(e.currentTarget.value);
          form.clearError('message');
        }}
        error={form.errors.message}
      />
    </>
  );
}

function VisitorForm() {
  const { t } = useTranslation();
  const lng = useLng();
  const form = useApiForm(FIELDS);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [website, setWebsite] = useState('');
  const [sent, setSent] = useState(false);
  const openedAt = useRef(0);
  useEffect(() => {
    openedAt.current = Date.now();
  }, [sent]);

  if (sent)
    return (
      <Sent
        onAgain={() => {
          setSubject('');
          setMessage('');
          setSent(false);
        }}
      />
    );

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.validate(contactSchema, {
      name,
      email: email.trim(),
      subject,
      message,
      ...(website ? { website } : {}),
      opened_at: openedAt.current,
    });
    if (!input) return;
    const res = await form.run(() => sendContact(input));
    if (res) setSent(true);
  };
  return (
    <form ref={form.formRef} noValidate onSubmit={(e) => void submit(e)} aria-labelledby="contact-form-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="contact-form-heading">
          {t('contact.page.formHeading')}
        </Title>
        <FormError message={form.errors._} />
        <TextInput
          label={t('contact.page.name')}
          withAsterisk
          autoComplete="name"
          maxLength={120}
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            form.clearError('name');
          }}
          error={form.errors.name}
        />
        <TextInput
          label={t('contact.page.email')}
          description={t('contact.page.emailHelp')}
          withAsterisk
          type="email"
          autoComplete="email"
          maxLength={254}
          value={email}
          onChange={(e) => {
            setEmail(e.currentTarget.value);
            form.clearError('email');
          }}
          error={form.errors.email}
        />
        <SubjectAndMessage form={form} subject={subject} setSubject={setSubject} message={message} setMessage={setMessage} />
        {/* Honeypot: hidden from people and assistive technology; automated senders fill it. */}
        <div aria-hidden="true" style={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }}>
          <label>
            Website
            <input tabIndex={-1} autoComplete="off" name="website" value={website} onChange={(e) => setWebsite(e.currentTarget.value)} />
          </label>
        </div>
        <Text size="xs" c="dimmed">
          {t('contact.page.privacy')}{' '}
          <Anchor component={Link} to={`/${lng}/legal/privacy-policy`} size="xs" underline="always">
            {t('contact.page.privacyLink')}
          </Anchor>
        </Text>
        <Group>
          <Button type="submit" loading={form.pending} leftSection={<IconSend size={16} aria-hidden />}>
            {t('contact.page.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AdminMessageForm({ name, email }: { name: string; email: string }) {
  const { t } = useTranslation();
  const form = useApiForm(FIELDS);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState(false);

  if (sent)
    return (
      <Sent
        onAgain={() => {
          setSubject('');
          setMessage('');
          setSent(false);
        }}
      />
    );

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.validate(adminMessageSchema, { subject, message });
    if (!input) return;
    const res = await form.run(() => sendToAdmin(input));
    if (res) setSent(true);
  };
  return (
    <form ref={form.formRef} noValidate onSubmit={(e) => void submit(e)} aria-labelledby="contact-form-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="contact-form-heading">
          {t('contact.page.adminHeading')}
        </Title>
        <Text size="sm">{t('contact.page.adminIntro', { name, email })}</Text>
        <FormError message={form.errors._} />
        <SubjectAndMessage form={form} subject={subject} setSubject={setSubject} message={message} setMessage={setMessage} />
        <Group>
          <Button type="submit" loading={form.pending} leftSection={<IconSend size={16} aria-hidden />}>
            {t('contact.page.adminSubmit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function ContactRoute() {
  const { t } = useTranslation();
  usePageTitle(t('contact.page.title'));
  const { data: user, isPending } = useCurrentUser();
  return (
    <Container size="sm" py="lg">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('contact.page.heading')}</Title>
          <Text mt={4}>{t('contact.page.intro')}</Text>
        </div>
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg">
          {isPending ? (
            <Skeleton height={320} radius="md" />
          ) : user ? (
            <AdminMessageForm name={user.name} email={user.email} />
          ) : (
            <VisitorForm />
          )}
        </Paper>
        <Text size="sm" c="dimmed">
          {t('contact.page.reportHint')}
        </Text>
      </Stack>
    </Container>
  );
}
