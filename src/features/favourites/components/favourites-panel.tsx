/** The client dashboard's panel of the favourites (issue 28): placeholder until that work lands. */
export function FavouritesPanel() {
  return null;
}
