// Who is calling, whichever credential proved it. A device acts for the user who paired it.
import type { CredentialKind, DeviceKind } from "./policy.js";

export type { CredentialKind, DeviceKind } from "./policy.js";

export interface Caller {
  /** The user the request acts for. */
  uid: string;
  /** The user's current custom claims (e.g. `{clinician: true}`), read from their account, not the token. */
  claims: Record<string, unknown>;
  credential: CredentialKind;
  /** Scopes granted (OAuth and device tokens); an ID token is the user themself: `["*"]`. */
  scopes: string[];
  /** OAuth client id (a URL for metadata-document clients), when credential is "oauth". */
  clientId?: string;
  /** The paired device, when credential is "device". */
  device?: { id: string; kind: DeviceKind; name: string };
}

export const hasClaim = (caller: Caller, claim: string): boolean => caller.claims[claim] === true;
