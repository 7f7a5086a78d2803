import { Button } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useLocation, useNavigate } from '#src/lib/router.tsx';
import { LANGUAGES, type Language } from '#contract/languages.ts';
import { rememberLanguage } from '#src/lib/i18n.ts';
import { MenuButton, MenuItem, MenuLabel } from './menu-button.tsx';

/** Replaces the language segment of a path, keeping the rest of the page (path, query, hash). */
export function pathForLanguage(pathname: string, lng: Language): string {
  const parts = pathname.split('/');
  if ((LANGUAGES as readonly string[]).includes(parts[1] ?? '')) parts[1] = lng;
  else parts.splice(1, 0, lng);
  const out = parts.join('/');
  return out.endsWith('/') && out.length > 1 && parts.length === 3 && parts[2] === '' ? out.slice(0, -1) : out;
}

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const current = i18n.resolvedLanguage ?? i18n.language;

  return (
    <MenuButton
      trigger={(props) => (
        <Button
          {...props}
          variant="subtle"
          color="gray"
          leftSection={<IconLanguage size={18} aria-hidden />}
          aria-label={t('nav.language')}
          px="xs"
        >
          {current === 'pt_BR' ? 'PT' : current.toUpperCase()}
        </Button>
      )}
    >
      <MenuLabel>{t('nav.language')}</MenuLabel>
      {LANGUAGES.map((lng) => (
        <MenuItem
          key={lng}
          lang={lng === 'pt_BR' ? 'pt-BR' : lng}
          aria-current={lng === current ? 'true' : undefined}
          style={lng === current ? { fontWeight: 700 } : undefined}
          onClick={() => {
            // Remembered now, before the URL changes: the shell's own switch (on the new URL) runs only after
            // the next render, and a visitor who goes to "/" before that would be sent back to the old language.
            rememberLanguage(lng);
            void navigate(pathForLanguage(location.pathname, lng) + location.search + location.hash);
          }}
        >
          {t(`languages.${lng}`)}
        </MenuItem>
      ))}
    </MenuButton>
  );
}
