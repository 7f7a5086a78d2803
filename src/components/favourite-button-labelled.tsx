/** The model page's heart (issue 28): the same toggle as the cards', with its words beside the icon. */
import { Button } from '@mantine/core';
import type { ModelCard } from '#contract/listings.ts';
import { useFavouriteToggle } from './favourite-button.tsx';
import classes from './favourite-button.module.css';

export function FavouriteButtonLabelled({ card }: { card: ModelCard }) {
  const { saved, label, onClick, icon } = useFavouriteToggle(card);
  return (
    <Button
      variant={saved ? 'light' : 'default'}
      color="red"
      size="md"
      h={44}
      leftSection={icon}
      aria-pressed={saved}
      onClick={onClick}
      className={classes.labelled}
    >
      {label}
    </Button>
  );
}
