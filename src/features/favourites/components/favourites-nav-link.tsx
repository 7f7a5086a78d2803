/**
 * The header's link to "Favoritas" with how many there are (issue 28). It also starts the favourites store once the
 * page is idle (src/lib/favourites.ts), so the hearts show what is saved and a visitor's device list is merged into
 * the account at sign-in, whichever page comes first.
 */
import { ActionIcon } from '@mantine/core';
import { IconHeart } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { startFavouritesWhenIdle, useFavouriteCount } from '#src/lib/favourites.ts';
import { useLng } from '#src/lib/paths.ts';
import classes from './favourites-nav-link.module.css';

export function FavouritesNavLink() {
  const { t } = useTranslation();
  const lng = useLng();
  const queryClient = useQueryClient();
  const count = useFavouriteCount();
  useEffect(() => startFavouritesWhenIdle(queryClient), [queryClient]);
  return (
    <ActionIcon
      className={classes.link}
      component={Link}
      to={`/${lng}/favourites`}
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={t('favourites.nav.label', { count })}
    >
      <IconHeart size={20} aria-hidden />
      {count ? (
        <span className={classes.count} aria-hidden>
          {count}
        </span>
      ) : null}
    </ActionIcon>
  );
}
