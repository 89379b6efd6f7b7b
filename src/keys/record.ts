/** What the service keeps of an issued key, and the plans a key can be on. */

export type PlanName = 'free' | 'pro';

/** An issued key as stored: never the key itself, only its SHA-256 hash (hex). */
export interface KeyRecord {
  hash: string;
  plan: PlanName;
  label: string;
  /** ISO 8601 UTC. */
  created_at: string;
}
