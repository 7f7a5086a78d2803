/** The client dashboard's panel of the saved searches (issue 28): placeholder until that work lands. */
export function SavedSearchesPanel() {
  return null;
}
