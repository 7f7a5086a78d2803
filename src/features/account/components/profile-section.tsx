import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One part of the Profile Edit screen: a titled card (a region named by its heading). */
export function ProfileSection({
  id,
  title,
  intro,
  danger = false,
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <Paper
      component="section"
      aria-labelledby={`${id}-title`}
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      style={danger ? { borderColor: 'var(--mantine-color-red-filled)' } : undefined}
    >
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id={`${id}-title`} c={danger ? 'red' : undefined}>
            {title}
          </Title>
          {intro ? (
            <Text size="sm" mt={4}>
              {intro}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
