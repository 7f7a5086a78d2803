/**
 * A message's text with its web addresses and e-mail addresses made into links, built as React text and <a>
 * elements (never HTML): only http(s) and mailto links, opened in a new tab without referrer or opener.
 */
import { Anchor } from '@mantine/core';
import { tokenize } from 'linkifyjs';
import type { ReactNode } from 'react';

const SAFE = new Set(['http:', 'https:', 'mailto:']);

export function safeHref(href: string): string | null {
  try {
    return SAFE.has(new URL(href).protocol) ? href : null;
  } catch {
    return null;
  }
}

export function LinkifiedText({ text, newTabLabel }: { text: string; newTabLabel: string }): ReactNode {
  return tokenize(text).map((token, i) => {
    const value = token.toString();
    const href = token.isLink ? safeHref(token.toHref('https')) : null;
    if (!href) return value;
    const external = !href.startsWith('mailto:');
    return (
      <Anchor
        key={i}
        href={href}
        c="inherit"
        underline="always"
        style={{ overflowWrap: 'anywhere' }}
        {...(external ? { target: '_blank', rel: 'noopener noreferrer nofollow ugc', title: newTabLabel } : {})}
      >
        {value}
      </Anchor>
    );
  });
}
