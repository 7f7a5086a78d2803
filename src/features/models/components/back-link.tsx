import { Anchor, Group } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useNavigate } from '#src/lib/router.tsx';

/** React Router keeps its own history index in history.state: above 0 there is a page of ours to go back to. */
function canGoBack(): boolean {
  const state = window.history.state as { idx?: unknown } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/**
 * "Back to the listing": a real link to the home page (so it works with the keyboard, a middle click, or a page
 * opened directly), which goes back in history instead when we came from inside the app — the listing then keeps
 * its filters, page and scroll position.
 */
export function BackLink({ lng }: { lng: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (!canGoBack()) return;
    event.preventDefault();
    void navigate(-1);
  };
  return (
    <Anchor component={Link} to={`/${lng}`} onClick={onClick} size="sm" style={{ alignSelf: 'flex-start' }} data-testid="back-to-listing">
      <Group gap={4} wrap="nowrap" component="span">
        <IconArrowLeft size={16} aria-hidden />
        {t('model.back')}
      </Group>
    </Anchor>
  );
}
