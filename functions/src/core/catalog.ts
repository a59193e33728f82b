// What the consent page and the device flow read from the manifest (core/manifest.ts): each
// protected function with its title and scopes, and the device clients. Derived, never a copy.
import { FUNCTIONS, SIGNED_IN_FUNCTIONS, type FunctionName } from "./manifest.js";

export { DEVICE_CLIENTS, type DeviceClientId, type DeviceKind } from "./manifest.js";

/** The functions whose MCP endpoint requires a credential, with what the consent page shows. */
export const PROTECTED: Partial<Record<FunctionName, { title: string; scopes: Record<string, string> }>> = Object.fromEntries(
  SIGNED_IN_FUNCTIONS.map((name) => [name, { title: FUNCTIONS[name].title, scopes: scopesOf(name) }]),
);

/** The scopes `name` declares (none for an open function). */
export function scopesOf(name: FunctionName): Record<string, string> {
  const m = FUNCTIONS[name];
  return "scopes" in m ? m.scopes : {};
}
