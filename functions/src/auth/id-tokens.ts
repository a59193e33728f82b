// Which Firebase ID tokens a function accepts at its MCP root and routes, set once per deployment
// (ACCEPT_ID_TOKENS, read at cold start): an ID token of the project is not bound to one
// function or one app, so one leaked from any app sharing the Firebase project (a web page's XSS,
// a mobile app) would otherwise act as the person at every function with every scope.
//   on            every ID token of the project (the default in the emulator: tests, `npm start`)
//   off           none: people connect with OAuth, devices pair (the default when deployed)
//   claim:<name>  only accounts whose custom claim <name> is true (set with the Admin SDK)
// Firebase ID tokens do not say which app signed the person in, so "this app's tokens only" is
// expressed as a claim given to that app's accounts.
import { isEmulator } from "../core/where.js";

export type IdTokenSetting = { accept: "all" } | { accept: "none" } | { accept: "claim"; claim: string };

export const ID_TOKEN_SETTING = "ACCEPT_ID_TOKENS";

/** The setting as written, checked: a typo stops the instance at cold start instead of opening or closing it silently. */
export function parseIdTokenSetting(raw: string | undefined, emulator: boolean): IdTokenSetting {
  const value = raw?.trim() ?? "";
  if (value === "") return emulator ? { accept: "all" } : { accept: "none" };
  if (value === "on") return { accept: "all" };
  if (value === "off") return { accept: "none" };
  const claim = /^claim:([A-Za-z_][A-Za-z0-9_]{0,63})$/.exec(value)?.[1];
  if (claim) return { accept: "claim", claim };
  throw new Error(`${ID_TOKEN_SETTING} must be on, off or claim:<custom claim name>, not "${raw}"`);
}

export const idTokens: IdTokenSetting = parseIdTokenSetting(process.env[ID_TOKEN_SETTING], isEmulator());

/** Why an ID token with these claims is refused here, or undefined when it is accepted. */
export function idTokenRefusal(claims: Record<string, unknown>, setting: IdTokenSetting = idTokens): string | undefined {
  if (setting.accept === "all") return undefined;
  if (setting.accept === "claim" && claims[setting.claim] === true) return undefined;
  return setting.accept === "none"
    ? "This server does not accept Firebase ID tokens: connect through its OAuth sign-in (the app asks you to sign in), or pair a device"
    : "This server accepts Firebase ID tokens only from accounts its operator enabled for them: connect through its OAuth sign-in instead";
}
