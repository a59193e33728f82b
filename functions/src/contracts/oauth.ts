// What the oauth function serves and every client of it relies on: where its endpoints are (its
// metadata names them; the Figma plugin falls back to these paths when discovery fails), the
// discovery documents' paths, and what the token endpoint answers a paired device.

/** The oauth function's endpoints, relative to its URL (the issuer). */
export const OAUTH_PATHS = {
  authorize: "/authorize",
  token: "/token",
  register: "/register",
  revoke: "/revoke",
  jwks: "/jwks",
  deviceAuthorization: "/device_authorization",
  /** The page a person opens to confirm a device's code (RFC 8628's verification URI). */
  device: "/device",
} as const;

/** Discovery documents: RFC 9728 on every protected function, RFC 8414 on the oauth function. */
export const WELL_KNOWN = {
  protectedResource: "/.well-known/oauth-protected-resource",
  authorizationServer: "/.well-known/oauth-authorization-server",
} as const;

/** RFC 8628's grant type, with which a device exchanges its device code at the token endpoint. */
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** What a device sends to the device authorization endpoint (RFC 8628 §3.1, and the name the pairing page shows). */
export interface DeviceAuthorizationRequest {
  client_id: string;
  /** How the person will recognise the device on the pairing page and on /apps. */
  device_name?: string;
}

/** The device authorization endpoint's answer (RFC 8628 §3.2). */
export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** The Firebase project a desktop agent signs in to (to listen to its capture requests). */
export interface FirebaseSettings {
  projectId: string;
  apiKey: string;
  authEmulatorHost?: string;
  firestoreEmulatorHost?: string;
}

/** A desktop agent's Firestore sign-in, sent with each of its access tokens. */
export interface FirebaseSignIn {
  firebase_custom_token: string;
  firebase: FirebaseSettings;
}

/** The token endpoint's answer to a device (RFC 6749 §5.1 and the device's own fields). */
export interface DeviceTokenResponse extends Partial<FirebaseSignIn> {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  /** The device credential: sent when the device code is exchanged, and a new one at every refresh (the device keeps the newest). */
  refresh_token?: string;
  /** Sent when the device code is exchanged: the paired device's id and its function's URL. */
  device_id?: string;
  resource?: string;
}
