/**
 * A request body not judged yet. A caller who may not act must learn nothing from a 400 or
 * 422 about what they sent, so a service first runs its permission checks (401, 404, 403) and
 * only then asks for the body: `validate()` answers it checked against the route's body
 * schema, or throws the 400. Keys the schema does not name are already gone.
 */
export interface PendingBody<T> {
  /**
   * `keep`: only the keys it accepts are judged and returned; the others are skipped, never
   * refused (a key the caller has no say over, on a page that always posts every key).
   */
  validate(keep?: (key: string) => boolean): T;
}
