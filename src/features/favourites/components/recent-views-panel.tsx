/** The client dashboard's panel of the recently viewed models (issue 28): placeholder until that work lands. */
export function RecentViewsPanel() {
  return null;
}
