import { Anchor, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from '#src/lib/router.tsx';

/** "¿No tienes cuenta? Regístrate" — a line of text with one link, under the auth cards. */
export function AuthLink({ text, to, children }: { text?: ReactNode; to: string; children: ReactNode }) {
  return (
    <Text size="sm">
      {text ? <>{text} </> : null}
      <Anchor component={Link} to={to} fw={600} size="sm">
        {children}
      </Anchor>
    </Text>
  );
}
