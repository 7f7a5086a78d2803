import { Alert, Box, Paper, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
}

/**
 * A table on wider screens, a list of cards on phones (360 px first): both come from the same column list; CSS shows
 * one of them, so assistive technology reads only the visible one.
 */
export function ResponsiveTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  title,
  loading,
  error,
  empty,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  /** The card's heading on phones (and the row's name). */
  title: (row: T) => ReactNode;
  loading?: boolean;
  error?: boolean;
  /** What an empty list says (default: the generic "nothing here"). */
  empty?: string;
}) {
  const { t } = useTranslation();
  if (error) return <Alert color="red">{t('admin.list.error')}</Alert>;
  if (loading || !rows) return <Skeleton height={160} radius="md" />;
  if (!rows.length) return <Text c="dimmed">{empty ?? t('admin.list.empty')}</Text>;
  return (
    <>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={600}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Caption style={{ captionSide: 'top', textAlign: 'start' }}>
              <VisuallyHidden>{caption}</VisuallyHidden>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.key} scope="col">
                    {c.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((c) => (
                    <Table.Td key={c.key}>{c.render(row)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
      <Stack gap="sm" hiddenFrom="sm" component="ul" aria-label={caption} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((row) => (
          <Paper key={rowKey(row)} withBorder p="md" radius="md" component="li">
            <Text fw={700} mb={6}>
              {title(row)}
            </Text>
            <Stack gap={4} component="dl" m={0}>
              {columns.slice(1).map((c) => (
                <Box key={c.key} style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
                  <Text component="dt" size="sm" c="dimmed" fw={600}>
                    {c.label}:
                  </Text>
                  <Text component="dd" size="sm" m={0} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                    {c.render(row)}
                  </Text>
                </Box>
              ))}
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  );
}
