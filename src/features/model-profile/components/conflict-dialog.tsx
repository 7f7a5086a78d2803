import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type Values = { [field: string]: unknown };

function show(value: unknown, yes: string, no: string): string {
  if (value === true) return yes;
  if (value === false) return no;
  if (typeof value === 'string') return value || '—';
  if (typeof value === 'number') return String(value);
  return '—';
}

/**
 * A stale edit (409): someone saved this profile after the user opened it. Shows, field by field, what is saved
 * now next to what the user typed, and lets them keep their version (saved over the new one, knowingly) or take
 * the saved one. Nothing is lost silently either way.
 */
export function ConflictDialog<V extends Values>(props: {
  mine: V;
  theirs: Partial<V>;
  labels: (field: string) => string;
  /** A readable form of a stored value (a city's name for its id…); undefined → shown as it is. */
  format?: (field: string, value: unknown) => string | undefined;
  onKeepMine: () => void;
  onUseTheirs: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const yes = t('common.yes');
  const no = t('common.no');
  const text = (f: string, v: unknown) => props.format?.(f, v) ?? show(v, yes, no);
  const changed = Object.keys(props.theirs).filter((f) => show(props.theirs[f], yes, no) !== show(props.mine[f], yes, no));
  return (
    <Modal opened onClose={props.onClose} title={t('modelProfile.conflict.title')} size="lg" centered>
      <Stack gap="md">
        <Text size="sm">{t('modelProfile.conflict.text')}</Text>
        {changed.length ? (
          <Table.ScrollContainer minWidth={420}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('modelProfile.conflict.field')}</Table.Th>
                  <Table.Th scope="col">{t('modelProfile.conflict.saved')}</Table.Th>
                  <Table.Th scope="col">{t('modelProfile.conflict.yours')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {changed.map((f) => (
                  <Table.Tr key={f}>
                    <Table.Th scope="row">{props.labels(f)}</Table.Th>
                    <Table.Td>{text(f, props.theirs[f])}</Table.Td>
                    <Table.Td>{text(f, props.mine[f])}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text size="sm">{t('modelProfile.conflict.same')}</Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onUseTheirs}>
            {t('modelProfile.conflict.useSaved')}
          </Button>
          <Button onClick={props.onKeepMine}>{t('modelProfile.conflict.keepMine')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
