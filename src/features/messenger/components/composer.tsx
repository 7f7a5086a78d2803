/**
 * The message box: 1–2,000 characters with a counter, Enter sends (Shift+Enter: a new line), and typing whispers to
 * the other side while there is text.
 */
import { Button, Group, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { CHAT_MESSAGE_MAX } from '#contract/support-chat.ts';

interface Props {
  onSend: (content: string) => void;
  onTyping: (typing: boolean) => void;
  disabled?: boolean;
}

export function Composer({ onSend, onTyping, disabled }: Props) {
  const { t } = useTranslation();
  const counterId = useId();
  const [text, setText] = useState('');
  const length = text.trim().length;
  const tooLong = length > CHAT_MESSAGE_MAX;
  const canSend = length > 0 && !tooLong && !disabled;

  const submit = () => {
    if (!canSend) return;
    onSend(text.trim());
    setText('');
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Textarea
        label={t('messenger.composer.label')}
        placeholder={t('messenger.composer.placeholder')}
        autosize
        minRows={1}
        maxRows={5}
        value={text}
        disabled={disabled}
        error={tooLong ? t('messenger.composer.tooLong', { max: CHAT_MESSAGE_MAX }) : undefined}
        aria-describedby={counterId}
        onChange={(event) => {
          setText(event.currentTarget.value);
          onTyping(event.currentTarget.value.trim().length > 0);
        }}
        onBlur={() => onTyping(false)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <Group justify="space-between" mt={6} wrap="nowrap">
        <Text id={counterId} size="xs" c={tooLong ? 'red' : 'dimmed'}>
          {t('messenger.composer.counter', { length, max: CHAT_MESSAGE_MAX })}
        </Text>
        <Button type="submit" disabled={!canSend} rightSection={<IconSend size={16} aria-hidden />}>
          {t('messenger.composer.send')}
        </Button>
      </Group>
    </form>
  );
}
