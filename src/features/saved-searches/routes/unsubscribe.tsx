/** The daily e-mail's one-click unsubscribe page (issue 28): placeholder until the saved-searches work lands. */
export function SavedSearchUnsubscribeRoute() {
  return null;
}
