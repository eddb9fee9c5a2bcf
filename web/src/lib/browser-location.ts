/**
 * Leaves the SPA for another page (payment provider, billing portal).
 * A module of its own so tests can replace it: jsdom cannot navigate.
 */
export function assignLocation(url: string): void {
  window.location.assign(url);
}
