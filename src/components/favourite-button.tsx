/**
 * The heart (issue 28) on every model card and on the model page: saves the ad to favourites or removes it, for
 * visitors (kept on the device) and every signed-in role (kept on the account). A toggle button (`aria-pressed`) with
 * a 44 px target. Rendered unpressed on the server and in the first render; the saved state arrives with the store
 * (src/lib/favourites.ts), which a tap also loads if it is not there yet.
 */
import { ActionIcon } from '@mantine/core';
import { IconHeart } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { ModelCard } from '#contract/listings.ts';
import { toggleFavourite, useIsFavourite } from '#src/lib/favourites.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import classes from './favourite-button.module.css';

/** The heart's state and its tap, shared by the card's icon and the model page's labelled button. */
export function useFavouriteToggle(card: ModelCard) {
  const { t } = useTranslation();
  const saved = useIsFavourite(card.id);
  const queryClient = useQueryClient();
  const ui = usePresenter();
  const onClick = () => void toggleFavourite(card, queryClient, ui);
  // One icon, filled by CSS when pressed (a second, filled icon weighed on the home's first load).
  const icon = <IconHeart size={22} aria-hidden className={classes.icon} />;
  return { saved, label: saved ? t('favourites.button.remove') : t('favourites.button.add'), onClick, icon };
}

/** The card's heart: an icon button over the photo's corner. */
export function FavouriteButton({ card }: { card: ModelCard }) {
  const { saved, label, onClick, icon } = useFavouriteToggle(card);
  return (
    <ActionIcon
      variant="default"
      radius="xl"
      size={44}
      aria-label={label}
      aria-pressed={saved}
      onClick={onClick}
      className={classes.overlay}
    >
      {icon}
    </ActionIcon>
  );
}
