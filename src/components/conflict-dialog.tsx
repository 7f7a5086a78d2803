import { Button, Group, Modal, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';

type Values = { [field: string]: unknown };

function show(value: unknown, yes: string, no: string): string {
  if (value === true) return yes;
  if (value === false) return no;
  if (typeof value === 'string') return value || '—';
  if (typeof value === 'number') return String(value);
  return '—';
}

/**
 * A stale edit (409): someone saved this record after the user opened it — online, or while the change waited in
 * the outbox. Shows, field by field, what is saved now next to what the user typed, and lets them keep their version
 * (saved over the new one, knowingly), take the saved one, or — with `onMerge` — choose per field. Nothing is lost
 * silently either way. Shared by the model's own profile and the publicist's model form.
 */
export function ConflictDialog<V extends Values>(props: {
  mine: V;
  theirs: Partial<V>;
  labels: (field: string) => string;
  /** A readable form of a stored value (a city's name for its id…); undefined → shown as it is. */
  format?: (field: string, value: unknown) => string | undefined;
  /** Text above the table (default: the online edit's wording). */
  text?: string;
  onKeepMine: () => void;
  onUseTheirs: () => void;
  /** Field-by-field choice: the user's values with the fields they chose from the saved record. */
  onMerge?: (merged: V) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const yes = t('common.yes');
  const no = t('common.no');
  const text = (f: string, v: unknown) => props.format?.(f, v) ?? show(v, yes, no);
  const changed = Object.keys(props.theirs).filter((f) => show(props.theirs[f], yes, no) !== show(props.mine[f], yes, no));
  const [choice, setChoice] = useState<Record<string, 'mine' | 'theirs'>>({});
  const merging = props.onMerge !== undefined && changed.length > 1;
  const merged = () => {
    const out: Values = { ...props.mine };
    for (const f of changed) if (choice[f] === 'theirs') out[f] = props.theirs[f];
    return out as V;
  };
  return (
    <Modal opened onClose={props.onClose} title={t('modelProfile.conflict.title')} size="lg" centered>
      <Stack gap="md" data-testid="conflict-dialog">
        <Text size="sm">{props.text ?? t('modelProfile.conflict.text')}</Text>
        {changed.length ? (
          // Three narrow columns that wrap: the whole comparison fits a 360 px phone without sideways scrolling.
          <Table.ScrollContainer minWidth={300}>
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
                  <Table.Tr key={f} data-testid="conflict-row" data-field={f}>
                    <Table.Th scope="row" style={{ verticalAlign: 'top' }}>
                      {props.labels(f)}
                      {merging ? (
                        <SegmentedControl
                          mt={6}
                          fullWidth
                          orientation="vertical"
                          size="xs"
                          aria-label={`${t('outbox.merge.choose')}: ${props.labels(f)}`}
                          value={choice[f] ?? 'mine'}
                          onChange={(v) => setChoice((c) => ({ ...c, [f]: v }))}
                          data={[
                            { value: 'mine', label: t('outbox.merge.mine') },
                            { value: 'theirs', label: t('outbox.merge.theirs') },
                          ]}
                        />
                      ) : null}
                    </Table.Th>
                    <Table.Td data-testid="conflict-theirs" style={{ verticalAlign: 'top', overflowWrap: 'break-word' }}>
                      {text(f, props.theirs[f])}
                    </Table.Td>
                    <Table.Td data-testid="conflict-mine" style={{ verticalAlign: 'top', overflowWrap: 'break-word' }}>
                      {text(f, props.mine[f])}
                    </Table.Td>
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
          {merging && Object.values(choice).includes('theirs') ? (
            <Button variant="light" onClick={() => props.onMerge?.(merged())}>
              {t('outbox.merge.apply')}
            </Button>
          ) : (
            <Button onClick={props.onKeepMine}>{t('modelProfile.conflict.keepMine')}</Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
