import { Button, Menu } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LANGUAGES, type Language } from '#contract/languages.ts';

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
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="subtle" color="gray" leftSection={<IconLanguage size={18} aria-hidden />} aria-label={t('nav.language')} px="xs">
          {current === 'pt_BR' ? 'PT' : current.toUpperCase()}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('nav.language')}</Menu.Label>
        {LANGUAGES.map((lng) => (
          <Menu.Item
            key={lng}
            lang={lng === 'pt_BR' ? 'pt-BR' : lng}
            aria-current={lng === current ? 'true' : undefined}
            fw={lng === current ? 700 : undefined}
            onClick={() => {
              void navigate(pathForLanguage(location.pathname, lng) + location.search + location.hash);
            }}
          >
            {t(`languages.${lng}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
