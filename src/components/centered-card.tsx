import { Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The centred card of the account screens (login, register, profile creation…): ~420 px wide, full width on phones. */
export function CenteredCard({
  title,
  intro,
  children,
  footer,
}: {
  title: ReactNode;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Container size={452} px="md" py="xl">
      <Paper withBorder radius="lg" p={{ base: 'md', xs: 'lg', sm: 'xl' }}>
        <Stack gap="lg">
          <div>
            <Title order={1} size="h2">
              {title}
            </Title>
            {intro ? (
              <Text size="sm" mt={6}>
                {intro}
              </Text>
            ) : null}
          </div>
          {children}
        </Stack>
      </Paper>
      {footer ? (
        <Stack gap={6} mt="md" align="center" ta="center">
          {footer}
        </Stack>
      ) : null}
    </Container>
  );
}
