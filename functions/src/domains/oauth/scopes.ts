// Which functions the authorization server issues tokens for, and what each scope lets an app do
// (shown on the consent page), read from the suite's catalog (core/catalog.ts).
import { DEVICE_CLIENTS, PROTECTED, type DeviceClientId } from "../../core/catalog.js";

export { DEVICE_CLIENTS, type DeviceClientId } from "../../core/catalog.js";

export interface ProtectedResource {
  /** The function name (its URL's last segment). */
  name: string;
  title: string;
  scopes: Record<string, string>;
}

export const RESOURCES: ProtectedResource[] = Object.entries(PROTECTED).flatMap(([name, r]) => (r ? [{ name, title: r.title, scopes: r.scopes }] : []));

export const resourceByName = (name: string): ProtectedResource | undefined => RESOURCES.find((r) => r.name === name);

export const allScopes = (): Record<string, string> => Object.assign({}, ...RESOURCES.map((r) => r.scopes));

export const isDeviceClient = (id: string): id is DeviceClientId => Object.hasOwn(DEVICE_CLIENTS, id);
