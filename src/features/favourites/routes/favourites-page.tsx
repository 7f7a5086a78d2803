/** The "Favoritas" page (issue 28): placeholder until the favourites work lands. */
export function FavouritesRoute() {
  return null;
}
