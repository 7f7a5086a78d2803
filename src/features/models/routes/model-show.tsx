/** Placeholder replaced by the model page (Profile/Model Show). */
export function ModelShowRoute() {
  return null;
}
